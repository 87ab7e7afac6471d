import { DriverException } from '@mikro-orm/core';
import { emitEvent } from '../webhooks/emitEvent';
import { leaveData } from '../webhooks/payloads';
import { DAY_MS } from '../../lib/calendar';
import { HrLeaveRequest, type Half } from '../../entities/hr/leave';
import { badRequest, conflict, invalidField } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { notify } from '../notifications/notify';
import { leaveDays } from './leaveDays';
import { findLeaveType } from './leaveTypes';
import { appendMovement, balanceOf, lockEmployee } from './store/leave';
import { employeeInScope, hrScope } from './lookup';
import { scheduleVersions } from './store/schedules';
import { chainFor, snapshotChain } from './approvalChains';
import { approvalChains } from './store/approvals';
import { accountOfEmployee } from './store/employees';

export interface FileLeaveRequestProps {
  leaveTypeId: string;
  startDate: string;
  startHalf?: Half;
  endDate: string;
  endHalf?: Half;
  comment?: string;
}

/** Longest span of one request. */
export const MAX_LEAVE_DAYS_SPAN = 366;

/**
 * Files a leave request for an employee (the caller's own, or any for hr.employees.manage). Its days are
 * counted in the type's counting (leaveDays: jours ouvrables to the return, or the half days worked) from the
 * schedule and public holidays, within the employment (400 `leave_covers_no_working_day` when it takes no worked
 * half). An archived type takes none (409 `leave_type_archived`). A type that tracks a balance holds the days at once (a `request` movement, reversed if refused)
 * and needs the balance (409 `insufficient_balance`). A span sharing a half day with a pending or granted
 * request is refused by the database (409 `leave_overlap`). The request snapshots the approval chain of its type
 * (snapshotChain: the manager's account, the named members, HR), which later decisions follow.
 */
export async function fileLeaveRequest(
  ctx: TenantContext,
  employeeId: string,
  props: FileLeaveRequestProps,
): Promise<HrLeaveRequest> {
  const employee = await employeeInScope(ctx, await hrScope(ctx), employeeId);
  const span = {
    startDate: props.startDate,
    startHalf: props.startHalf ?? 'morning',
    endDate: props.endDate,
    endHalf: props.endHalf ?? 'afternoon',
  } as const;
  if (span.endDate < span.startDate) throw invalidField('endDate', 'must not be before startDate');
  if (span.endDate === span.startDate && span.startHalf === 'afternoon' && span.endHalf === 'morning')
    throw invalidField('endHalf', 'a one-day request starting in the afternoon ends in the afternoon');
  if ((Date.parse(span.endDate) - Date.parse(span.startDate)) / DAY_MS >= MAX_LEAVE_DAYS_SPAN)
    throw invalidField('endDate', `a request spans at most ${MAX_LEAVE_DAYS_SPAN} days`);
  const type = await findLeaveType(ctx, props.leaveTypeId);
  if (type.archivedAt)
    throw conflict('leave_type_archived', `Leave type ${type.code} is archived: it takes no new request`);
  const days = leaveDays(span, type.counting, await scheduleVersions(ctx.em, employee.id), employee);
  if (days <= 0)
    throw badRequest(
      'leave_covers_no_working_day',
      'The request covers no working day of the employee (days before the hire date or after the last day count 0)',
    );
  const manager = employee.managerId ? await accountOfEmployee(ctx.em, employee.managerId) : null;
  const approvalChain = snapshotChain(chainFor(await approvalChains(ctx.em), type.id), {
    employeeUserId: employee.userProvisional ? null : (employee.userId ?? null),
    managerUserId: manager && !manager.userProvisional ? (manager.userId ?? null) : null,
  });
  try {
    const request = await ctx.em.transactional(async (em) => {
      await lockEmployee(em, employee.id);
      if (type.tracksBalance) {
        const balance = await balanceOf(em, employee.id, type.id);
        if (balance < days)
          throw conflict(
            'insufficient_balance',
            `The request takes ${days} days; the ${type.code} balance is ${balance}`,
          );
      }
      const request = em.create(HrLeaveRequest, {
        tenantId: ctx.tenantId,
        employeeId: employee.id,
        leaveTypeId: type.id,
        ...span,
        days,
        status: 'pending',
        approvalChain,
        approvedSteps: 0,
        comment: props.comment ?? null,
        requestedBy: ctx.userId,
      });
      if (type.tracksBalance)
        appendMovement(em, {
          tenantId: ctx.tenantId,
          employeeId: employee.id,
          leaveTypeId: type.id,
          kind: 'request',
          days: -days,
          leaveRequestId: request.id,
          createdBy: ctx.userId,
        });
      audit(em, {
        action: 'hr.leave.requested',
        actorId: ctx.userId,
        tenantId: ctx.tenantId,
        targetType: 'hr_leave_request',
        targetId: request.id,
      });
      emitEvent(em, ctx.tenantId, 'leave.requested', leaveData(request, type.code));
      return request;
    });
    await notify(ctx.services, 'rh', [
      {
        event: 'leave.requested',
        tenantId: ctx.tenantId,
        subject: { employeeId: employee.id, leaveRequestId: request.id },
        data: { leaveType: type.code, startDate: span.startDate, endDate: span.endDate, days },
      },
    ]);
    return request;
  } catch (err) {
    if (err instanceof DriverException && (err as DriverException & { code?: string }).code === '23P01')
      throw conflict('leave_overlap', 'The employee already has a pending or granted request on these days');
    throw err;
  }
}
