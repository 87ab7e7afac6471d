import { HrEmployee } from '../../entities/hr/employee';
import type { Em } from '../../lib/db';
import { forbidden, notFound } from '../../lib/errors';
import type { TenantContext } from '../context';

/** The employee of the context's organisation, or 404 (another organisation's id included). */
export async function findEmployee(em: Em, id: string): Promise<HrEmployee> {
  const employee = await em.findOne(HrEmployee, { id });
  if (!employee) throw notFound('Employee');
  return employee;
}

/** What the caller may see of the HR data: everything (a manager), or only their own employee record. */
export interface HrScope {
  manager: boolean;
  /** The caller's own employee record, when they have one. */
  self: HrEmployee | null;
}

/** Whether the caller holds `permission` (managers of the HR data hold hr.employees.manage). */
export async function holds(ctx: TenantContext, permission: 'hr.employees.manage' | 'hr.leave.decide' | 'hr.compliance.manage'): Promise<boolean> {
  if (!ctx.userId) return true;
  return (await ctx.services.permissions.of(ctx.tenantId, ctx.userId)).has(permission);
}

export async function hrScope(ctx: TenantContext, managerPermission: 'hr.employees.manage' | 'hr.leave.decide' = 'hr.employees.manage'): Promise<HrScope> {
  const manager = await holds(ctx, managerPermission);
  const self = ctx.userId ? await ctx.em.findOne(HrEmployee, { userId: ctx.userId, userProvisional: false }) : null;
  return { manager, self };
}

/** An employee the caller may act on: any for a manager, else only their own (404 for others, 403 without a record). */
export async function employeeInScope(ctx: TenantContext, scope: HrScope, id: string): Promise<HrEmployee> {
  if (scope.manager) return findEmployee(ctx.em, id);
  if (!scope.self) throw forbidden('no_employee_record', 'Your account is not linked to an employee of this organisation');
  if (scope.self.id !== id) throw notFound('Employee');
  return scope.self;
}

/** The employee condition of a list: as asked for a manager, the caller's own otherwise. */
export function employeeFilter(scope: HrScope, employeeId?: string): { employeeId?: string } {
  if (scope.manager) return employeeId ? { employeeId } : {};
  if (!scope.self) throw forbidden('no_employee_record', 'Your account is not linked to an employee of this organisation');
  if (employeeId && employeeId !== scope.self.id) throw notFound('Employee');
  return { employeeId: scope.self.id };
}
