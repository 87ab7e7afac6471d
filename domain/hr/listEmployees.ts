import type { EmployeeStatus, HrEmployee } from '../../entities/hr/employee';
import type { Lean } from '../../lib/lean';
import { toPage, type Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { readScope } from './lookup';
import { employeesPage } from './store/employees';

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
export async function listEmployees(ctx: TenantContext, props: ListEmployeesProps): Promise<Page<Lean<HrEmployee>>> {
  const scope = await readScope(ctx);
  if (!scope.manager && !scope.self) return { items: [], nextCursor: null };
  const only = scope.manager ? null : scope.self!.id;
  const like = props.q ? `%${likeEscape(props.q)}%` : null;
  const rows = await employeesPage.all(
    ctx,
    only,
    props.status ?? null,
    props.department ?? null,
    props.userId ?? null,
    like,
    props.cursor ?? null,
    props.limit + 1,
  );
  return toPage(rows, props.limit);
}
