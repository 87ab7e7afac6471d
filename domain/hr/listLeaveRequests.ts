import type { FilterQuery } from '@mikro-orm/core';
import { HrLeaveRequest, type LeaveStatus } from '../../entities/hr/leave';
import { cursorWhere, toPage, type Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { employeeFilter, holds, hrScope } from './lookup';

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
export async function listLeaveRequests(ctx: TenantContext, props: ListLeaveRequestsProps): Promise<Page<HrLeaveRequest>> {
  const scope = await hrScope(ctx, 'hr.leave.decide');
  if (!scope.manager) scope.manager = await holds(ctx, 'hr.employees.manage');
  const where: FilterQuery<HrLeaveRequest> = { ...employeeFilter(scope, props.employeeId), ...cursorWhere(props.cursor, 'desc') };
  if (props.status) where.status = props.status;
  if (props.leaveTypeId) where.leaveTypeId = props.leaveTypeId;
  if (props.from) where.endDate = { $gte: props.from };
  if (props.to) where.startDate = { $lte: props.to };
  return toPage(await ctx.em.find(HrLeaveRequest, where, { orderBy: { id: 'desc' }, limit: props.limit + 1 }), props.limit);
}
