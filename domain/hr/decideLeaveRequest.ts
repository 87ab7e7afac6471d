import { HrLeaveRequest } from '../../entities/hr/leave';
import { emitEvent } from '../webhooks/emitEvent';
import { leaveData } from '../webhooks/payloads';
import { HrLeaveType } from '../../entities/hr/leave';
import { conflict, forbidden, invalidField, notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { notify } from '../notifications/notify';
import { accountOfEmployee } from './store/employees';
import { appendMovement, heldBy, lockEmployee } from './store/leave';

export interface DecideLeaveProps {
  decision: 'grant' | 'refuse';
  /** Required to refuse. */
  reason?: string;
}

/**
 * Grants or refuses a pending request (409 `leave_already_decided` otherwise; concurrent deciders: one wins).
 * Refusing needs a reason and gives the days the request holds back (`refusal_reversal`); granting keeps the hold. Nobody
 * decides their own request (403 `own_request`).
 */
export async function decideLeaveRequest(
  ctx: TenantContext,
  id: string,
  props: DecideLeaveProps,
): Promise<HrLeaveRequest> {
  if (props.decision === 'refuse' && !props.reason?.trim()) throw invalidField('reason', 'is required to refuse');
  const found = await ctx.em.findOne(HrLeaveRequest, { id });
  if (!found) throw notFound('Leave request');
  if (ctx.userId) {
    const employee = await accountOfEmployee(ctx.em, found.employeeId);
    if (employee && !employee.userProvisional && employee.userId === ctx.userId)
      throw forbidden('own_request', 'Nobody decides their own leave request');
  }
  const request = await ctx.em.transactional(async (em) => {
    await lockEmployee(em, found.employeeId);
    const request = await em.findOneOrFail(HrLeaveRequest, { id }, { refresh: true });
    if (request.status !== 'pending')
      throw conflict('leave_already_decided', `This request was already ${request.status}`);
    request.status = props.decision === 'grant' ? 'granted' : 'refused';
    request.decidedBy = ctx.userId;
    request.decidedAt = new Date();
    request.decisionReason = props.reason?.trim() || null;
    const held = request.status === 'refused' ? await heldBy(em, request.id) : 0;
    if (held > 0)
      appendMovement(em, {
        tenantId: ctx.tenantId,
        employeeId: request.employeeId,
        leaveTypeId: request.leaveTypeId,
        kind: 'refusal_reversal',
        days: held,
        leaveRequestId: request.id,
        reason: request.decisionReason,
        createdBy: ctx.userId,
      });
    audit(em, {
      action: `hr.leave.${request.status}`,
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'hr_leave_request',
      targetId: request.id,
    });
    const type = await em.findOneOrFail(HrLeaveType, { id: request.leaveTypeId });
    emitEvent(em, ctx.tenantId, 'leave.decided', leaveData(request, type.code));
    return request;
  });
  await notify(ctx.services, 'rh', [
    {
      event: 'leave.decided',
      tenantId: ctx.tenantId,
      subject: { employeeId: request.employeeId, leaveRequestId: request.id },
      data: {
        status: request.status,
        startDate: request.startDate,
        endDate: request.endDate,
        days: Number(request.days),
      },
    },
  ]);
  return request;
}
