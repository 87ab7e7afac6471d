import type { HrLeaveRequest, LeaveStatus } from '../../entities/hr/leave';
import type { Lean } from '../../lib/lean';
import { toPage, type Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { employeeFilter, holds, readScope } from './lookup';
import { leaveRequestsPage } from './store/leave';

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

/** Leave requests, newest first: every employee's for hr.leave.decide or hr.employees.manage, else the caller's own. */
export async function listLeaveRequests(
  ctx: TenantContext,
  props: ListLeaveRequestsProps,
): Promise<Page<Lean<HrLeaveRequest>>> {
  const scope = await readScope(ctx, 'hr.leave.decide');
  if (!scope.manager) scope.manager = await holds(ctx, 'hr.employees.manage');
  const { employeeId } = employeeFilter(scope, props.employeeId);
  const rows = await leaveRequestsPage.all(
    ctx,
    employeeId ?? null,
    props.status ?? null,
    props.leaveTypeId ?? null,
    props.from ?? null,
    props.to ?? null,
    props.cursor ?? null,
    props.limit + 1,
  );
  return toPage(rows, props.limit);
}
