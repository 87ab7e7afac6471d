import type { FilterQuery } from '@mikro-orm/core';
import { HrEmployee, type EmployeeStatus } from '../../entities/hr/employee';
import { cursorWhere, toPage, type Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { employeeInScope, hrScope } from './lookup';

export interface ListEmployeesProps {
  status?: EmployeeStatus;
  department?: string;
  /** Case-insensitive part of the first name, last name or e-mail. */
  q?: string;
  userId?: string;
  limit: number;
  cursor?: string;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Employees, oldest first; a caller without hr.employees.manage sees only their own record. */
export async function listEmployees(ctx: TenantContext, props: ListEmployeesProps): Promise<Page<HrEmployee>> {
  const scope = await hrScope(ctx);
  const where: FilterQuery<HrEmployee> = { ...cursorWhere(props.cursor, 'asc') };
  if (!scope.manager) where.id = scope.self?.id ?? null;
  if (props.status) where.status = props.status;
  if (props.department) where.department = props.department;
  if (props.userId) where.userId = props.userId;
  if (props.q) {
    const like = `%${likeEscape(props.q)}%`;
    where.$or = [{ firstName: { $ilike: like } }, { lastName: { $ilike: like } }, { email: { $ilike: like } }];
  }
  if (!scope.manager && props.cursor && scope.self && props.cursor >= scope.self.id) return { items: [], nextCursor: null };
  return toPage(await ctx.em.find(HrEmployee, where, { orderBy: { id: 'asc' }, limit: props.limit + 1 }), props.limit);
}

/** One employee: any for a manager, the caller's own otherwise. */
export async function getEmployee(ctx: TenantContext, id: string): Promise<HrEmployee> {
  return employeeInScope(ctx, await hrScope(ctx), id);
}
