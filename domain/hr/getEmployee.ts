import type { HrEmployee } from '../../entities/hr/employee';
import type { Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { employeeInReadScope, readScope } from './lookup';

/** One employee: any for a manager, the caller's own otherwise. */
export async function getEmployee(ctx: TenantContext, id: string): Promise<Lean<HrEmployee>> {
  return employeeInReadScope(ctx, await readScope(ctx), id);
}
