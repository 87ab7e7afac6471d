import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { HrLeaveApproval } from '../../entities/hr/approval';
import { HrLeaveRequest } from '../../entities/hr/leave';
import { emitEvent } from '../webhooks/emitEvent';
import { leaveData } from '../webhooks/payloads';
import { HrLeaveType } from '../../entities/hr/leave';
import { conflict, forbidden, invalidField, notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { notify } from '../notifications/notify';
import { currentStep, decidesStep } from './approvalChains';
import { holds } from './lookup';
import { delegationToday } from './delegateApprovals';
import { delegatedOn } from './store/approvals';
import { accountOfEmployee } from './store/employees';
import { appendMovement, heldBy, lockEmployee } from './store/leave';

export interface DecideLeaveProps {
  decision: 'grant' | 'refuse';
  /** Required to refuse. */
  reason?: string;
}

/**
 * Decides a pending request (409 `leave_already_decided` otherwise; concurrent deciders: one wins). Without an
 * approval chain one holder of hr.leave.decide grants or refuses it. With one, the caller decides the step it
 * waits for (403 `not_current_approver` unless it is theirs: the manager's or named member's account, any holder of
 * hr.leave.decide for `hr`): each step is one append-only `hr_leave_approvals` row (unique per request and step,
 * in order: the database refuses a step before its previous one is approved), audited and notified
 * (`leave.step_approved`); the request is granted when the last step approves, refused at the first refusal, and
 * only that final decision emits `leave.decided`. Refusing needs a reason and gives the days the request holds back
 * (`refusal_reversal`); granting keeps the hold. Nobody decides their own request (403 `own_request`).
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
  const holdsDecide = await holds(ctx, 'hr.leave.decide');
  const reason = props.reason?.trim() || null;
  let outcome: { request: HrLeaveRequest; final: boolean; step: number | null };
  try {
    outcome = await ctx.em.transactional(async (em) => {
      await lockEmployee(em, found.employeeId);
      const request = await em.findOneOrFail(HrLeaveRequest, { id }, { refresh: true });
      if (request.status !== 'pending')
        throw conflict('leave_already_decided', `This request was already ${request.status}`);
      const chain = request.approvalChain ?? [];
      const step = currentStep(chain, request.approvedSteps);
      const caller = { userId: ctx.userId, holdsDecide };
      // A delegate decides a member's step on the days of the delegation, in the approver's name.
      const approver = step === null ? null : chain[step].userId;
      const onBehalfOf =
        step !== null && !decidesStep(chain[step], caller) && approver && ctx.userId
          ? (await delegatedOn(em, approver, ctx.userId, delegationToday()))
            ? approver
            : null
          : null;
      if (step === null ? !holdsDecide : !decidesStep(chain[step], caller) && !onBehalfOf)
        throw forbidden(
          'not_current_approver',
          step === null
            ? 'Deciding this request needs hr.leave.decide'
            : `The request waits for step ${step + 1} of ${chain.length} (${chain[step].kind}), which is not yours`,
        );
      let final = true;
      if (step !== null) {
        em.create(HrLeaveApproval, {
          tenantId: ctx.tenantId,
          leaveRequestId: request.id,
          step: step + 1,
          kind: chain[step].kind,
          decision: props.decision === 'grant' ? 'approved' : 'refused',
          decidedBy: ctx.userId,
          onBehalfOf,
          reason,
        });
        audit(em, {
          action: props.decision === 'grant' ? 'hr.leave.step_approved' : 'hr.leave.step_refused',
          actorId: ctx.userId,
          tenantId: ctx.tenantId,
          targetType: 'hr_leave_request',
          targetId: request.id,
          data: { step: step + 1, of: chain.length, kind: chain[step].kind, onBehalfOf },
        });
        final = props.decision === 'refuse' || step + 1 === chain.length;
        if (props.decision === 'grant') request.approvedSteps = step + 1;
      }
      if (!final) return { request, final, step };
      request.status = props.decision === 'grant' ? 'granted' : 'refused';
      request.decidedBy = ctx.userId;
      request.decidedAt = new Date();
      request.decisionReason = reason;
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
      return { request, final, step };
    });
  } catch (err) {
    // Another approver recorded this step first (the lock makes it rare; the unique key makes it impossible twice).
    if (err instanceof UniqueConstraintViolationException)
      throw conflict('leave_already_decided', 'This step of the request was already decided');
    throw err;
  }
  const { request, final, step } = outcome;
  const subject = { employeeId: request.employeeId, leaveRequestId: request.id };
  await notify(ctx.services, 'rh', [
    final
      ? {
          event: 'leave.decided',
          tenantId: ctx.tenantId,
          subject,
          data: {
            status: request.status,
            startDate: request.startDate,
            endDate: request.endDate,
            days: Number(request.days),
          },
        }
      : {
          event: 'leave.step_approved',
          tenantId: ctx.tenantId,
          subject,
          data: {
            step: (step ?? 0) + 1,
            of: request.approvalChain.length,
            next: request.approvalChain[request.approvedSteps],
          },
        },
  ]);
  return request;
}
