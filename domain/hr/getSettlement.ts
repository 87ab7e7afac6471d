import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { employeeInReadScope, readScope } from './lookup';
import type { SettlementValues } from './settleDeparture';
import { settlementOf } from './store/settlements';

/** The frozen departure settlement of an employee (404 until made). Members read their own. */
export async function getSettlement(ctx: TenantContext, employeeId: string): Promise<SettlementValues> {
  const employee = await employeeInReadScope(ctx, await readScope(ctx), employeeId);
  const row = await settlementOf(ctx.em, employee.id);
  if (!row) throw notFound('Settlement');
  return {
    employeeId: row.employeeId,
    endDate: row.endDate,
    lines: row.lines,
    settledAt: row.createdAt,
    settledBy: row.settledBy ?? null,
  };
}
