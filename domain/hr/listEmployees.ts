import { HrEmployee, type EmployeeStatus } from '../../entities/hr/employee';
import { lean, type Lean } from '../../lib/lean';
import { toPage, type Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { employeeInReadScope, readScope } from './lookup';

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

// A lean statement (docs/database-path.md): every combination of filters is one prepared statement.
const employeesPage = lean(HrEmployee, {
  where: `($1::uuid is null or id = $1) and ($2::text is null or status = $2) and ($3::text is null or department = $3) and ($4::uuid is null or user_id = $4)
    and ($5::text is null or first_name ilike $5 or last_name ilike $5 or email ilike $5) and ($6::uuid is null or id > $6)`,
  orderBy: 'id asc',
  limitParam: '$7',
});

/** Employees, oldest first; a caller without hr.employees.manage sees only their own record. */
export async function listEmployees(ctx: TenantContext, props: ListEmployeesProps): Promise<Page<Lean<HrEmployee>>> {
  const scope = await readScope(ctx);
  if (!scope.manager && !scope.self) return { items: [], nextCursor: null };
  const only = scope.manager ? null : scope.self!.id;
  const like = props.q ? `%${likeEscape(props.q)}%` : null;
  const rows = await employeesPage.all(ctx, only, props.status ?? null, props.department ?? null, props.userId ?? null, like, props.cursor ?? null, props.limit + 1);
  return toPage(rows, props.limit);
}

/** One employee: any for a manager, the caller's own otherwise. */
export async function getEmployee(ctx: TenantContext, id: string): Promise<Lean<HrEmployee>> {
  return employeeInReadScope(ctx, await readScope(ctx), id);
}
