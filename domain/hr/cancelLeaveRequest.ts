import { HrLeaveRequest } from '../../entities/hr/leave';
import { todayIn } from '../../lib/calendar';
import { conflict, forbidden, notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { notify } from '../notifications/notify';
import { appendMovement, heldBy, lockEmployee } from './store/leave';
import { hrScope } from './lookup';

export interface CancelLeaveProps {
  /** Why (kept on the request and the ledger movement). */
  reason?: string;
}

/**
 * Cancels a live request (pending or granted): it becomes `cancelled`, final, frees its half days and, for a type
 * that held days in the ledger, gives every day it held back through one `cancellation` movement (with author and
 * reason). The employee withdraws their own pending request, and their own granted one until its first day
 * (in their time zone; from that day 409 `leave_started`: a manager recalls it). A holder of hr.leave.decide
 * cancels any other employee's pending or granted request, started or taken included (a recall: the whole
 * request goes, the days actually taken are filed again). Refused or cancelled: 409 `invalid_transition`.
 * Someone else's request without hr.leave.decide: 404. Serialised with decisions on the employee's lock, so a
 * concurrent decision or second cancellation finds the request final; the database keeps one reversal per request.
 */
export async function cancelLeaveRequest(
  ctx: TenantContext,
  id: string,
  props: CancelLeaveProps,
): Promise<HrLeaveRequest> {
  const scope = await hrScope(ctx, 'hr.leave.decide');
  const found = await ctx.em.findOne(HrLeaveRequest, { id });
  if (!found) throw notFound('Leave request');
  const own = scope.self?.id === found.employeeId;
  if (!own && !scope.manager) {
    if (!scope.self)
      throw forbidden('no_employee_record', 'Your account is not linked to an employee of this organisation');
    throw notFound('Leave request');
  }
  const reason = props.reason?.trim() || null;
  const { request, previous } = await ctx.em.transactional(async (em) => {
    await lockEmployee(em, found.employeeId);
    const request = await em.findOneOrFail(HrLeaveRequest, { id }, { refresh: true });
    const previous = request.status;
    if (previous !== 'pending' && previous !== 'granted')
      throw conflict(
        'invalid_transition',
        `This request is ${previous}: only pending or granted requests can be cancelled`,
      );
    if (own && previous === 'granted') {
      const today = todayIn(scope.self!.timeZone);
      if (request.startDate <= today)
        throw conflict('leave_started', 'This granted leave has started: only a manager can recall it');
    }
    request.status = 'cancelled';
    request.cancelledBy = ctx.userId;
    request.cancelledAt = new Date();
    request.cancellationReason = reason;
    const held = await heldBy(em, request.id);
    if (held > 0)
      appendMovement(em, {
        tenantId: ctx.tenantId,
        employeeId: request.employeeId,
        leaveTypeId: request.leaveTypeId,
        kind: 'cancellation',
        days: held,
        leaveRequestId: request.id,
        reason,
        createdBy: ctx.userId,
      });
    audit(em, {
      action: 'hr.leave.cancelled',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'hr_leave_request',
      targetId: request.id,
      data: { from: previous, by: own ? 'employee' : 'manager', reason },
    });
    return { request, previous };
  });
  await notify(ctx.services, 'rh', [
    {
      event: 'leave.cancelled',
      tenantId: ctx.tenantId,
      subject: { employeeId: request.employeeId, leaveRequestId: request.id },
      data: {
        previousStatus: previous,
        startDate: request.startDate,
        endDate: request.endDate,
        days: Number(request.days),
      },
    },
  ]);
  return request;
}
