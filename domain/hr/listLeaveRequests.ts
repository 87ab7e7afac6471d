import { HrLeaveRequest, type LeaveStatus } from '../../entities/hr/leave';
import { lean, type Lean } from '../../lib/lean';
import { toPage, type Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { employeeFilter, holds, readScope } from './lookup';

export interface ListLeaveRequestsProps {
  employeeId?: string;
  status?: LeaveStatus;
  leaveTypeId?: string;
  /** Requests ending on or after this date. */
  from?: string;
  /** Requests starting on or before this date. */
  to?: string;
  limit: number;
  cursor?: string;
}

// A lean statement (docs/database-path.md): every combination of filters is one prepared statement.
const leaveRequestsPage = lean(HrLeaveRequest, {
  where: `($1::uuid is null or employee_id = $1) and ($2::text is null or status = $2) and ($3::uuid is null or leave_type_id = $3)
    and ($4::date is null or end_date >= $4) and ($5::date is null or start_date <= $5) and ($6::uuid is null or id < $6)`,
  orderBy: 'id desc',
  limitParam: '$7',
});

/** Leave requests, newest first: every employee's for hr.leave.decide or hr.employees.manage, else the caller's own. */
export async function listLeaveRequests(ctx: TenantContext, props: ListLeaveRequestsProps): Promise<Page<Lean<HrLeaveRequest>>> {
  const scope = await readScope(ctx, 'hr.leave.decide');
  if (!scope.manager) scope.manager = await holds(ctx, 'hr.employees.manage');
  const { employeeId } = employeeFilter(scope, props.employeeId);
  const rows = await leaveRequestsPage.all(ctx, employeeId ?? null, props.status ?? null, props.leaveTypeId ?? null, props.from ?? null, props.to ?? null, props.cursor ?? null, props.limit + 1);
  return toPage(rows, props.limit);
}
