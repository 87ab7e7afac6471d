import { HrEmployee } from '../../entities/hr/employee';
import type { Em } from '../../lib/db';
import { forbidden, notFound } from '../../lib/errors';
import type { Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { employeeById, ownEmployee, ownEmployeeRecord } from './store/employees';

/** The employee of the context's organisation, or 404 (another organisation's id included). */
export async function findEmployee(em: Em, id: string): Promise<HrEmployee> {
  const employee = await em.findOne(HrEmployee, { id });
  if (!employee) throw notFound('Employee');
  return employee;
}

/**
 * What the caller may see of the HR data: everything (a manager), or only their own employee record. `E` is
 * how the record was read: a managed entity (hrScope, for use cases that change or flush it) or a lean row
 * (readScope, for reads that only present it).
 */
export interface HrScope<E extends { id: string } = HrEmployee> {
  manager: boolean;
  /** The caller's own employee record, when they have one. */
  self: E | null;
}

/** The scope of a read-only use case: the caller's own record as a lean row. */
export type ReadScope = HrScope<Lean<HrEmployee>>;

type ManagerPermission = 'hr.employees.manage' | 'hr.leave.decide';

/** Whether the caller holds `permission` (managers of the HR data hold hr.employees.manage). */
export async function holds(
  ctx: TenantContext,
  permission: 'hr.employees.manage' | 'hr.leave.decide' | 'hr.compliance.manage',
): Promise<boolean> {
  if (!ctx.userId) return true;
  return (await ctx.services.permissions.of(ctx.tenantId, ctx.userId)).has(permission);
}

/** The scope decision, whichever way the caller's own record (an account's, never a provisional id) is read. */
async function scopeOf<E extends { id: string }>(
  ctx: TenantContext,
  managerPermission: ManagerPermission,
  ownRecord: (userId: string) => Promise<E | null>,
): Promise<HrScope<E>> {
  const manager = await holds(ctx, managerPermission);
  const self = ctx.userId ? await ownRecord(ctx.userId) : null;
  return { manager, self };
}

/** The scope of a use case that writes: the caller's own record is a managed entity of ctx.em. */
export async function hrScope(
  ctx: TenantContext,
  managerPermission: ManagerPermission = 'hr.employees.manage',
): Promise<HrScope> {
  return scopeOf(ctx, managerPermission, (userId) => ownEmployeeRecord(ctx.em, userId));
}

/** hrScope for a read-only use case: the same decision, the caller's own record read lean. */
export async function readScope(
  ctx: TenantContext,
  managerPermission: ManagerPermission = 'hr.employees.manage',
): Promise<ReadScope> {
  return scopeOf(ctx, managerPermission, (userId) => ownEmployee.one(ctx, userId));
}

/** The caller's own record when `id` is it: 403 without a record, 404 for another employee's. */
function ownOnly<E extends { id: string }>(scope: HrScope<E>, id: string): E {
  if (!scope.self)
    throw forbidden('no_employee_record', 'Your account is not linked to an employee of this organisation');
  if (scope.self.id !== id) throw notFound('Employee');
  return scope.self;
}

/** An employee the caller may act on: any for a manager, else only their own (404 for others, 403 without a record). */
export async function employeeInScope(ctx: TenantContext, scope: HrScope, id: string): Promise<HrEmployee> {
  return scope.manager ? findEmployee(ctx.em, id) : ownOnly(scope, id);
}

/** employeeInScope for a read-only use case: the employee as a lean row. */
export async function employeeInReadScope(ctx: TenantContext, scope: ReadScope, id: string): Promise<Lean<HrEmployee>> {
  return scope.manager ? employeeById.byId('Employee', ctx, id) : ownOnly(scope, id);
}

/** The employee condition of a list: as asked for a manager, the caller's own otherwise. */
export function employeeFilter(scope: HrScope<{ id: string }>, employeeId?: string): { employeeId?: string } {
  if (scope.manager) return employeeId ? { employeeId } : {};
  // Without employeeId: the caller's own (ownOnly still answers 403 without a record).
  return { employeeId: ownOnly(scope, employeeId || (scope.self?.id ?? '')).id };
}
