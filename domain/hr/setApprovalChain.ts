import type { ApprovalStepConfig } from '../../entities/hr/approval';
import { invalidField } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { findLeaveType } from './leaveTypes';
import { approvalChains, deleteApprovalChain, upsertApprovalChain } from './store/approvals';
import { isMember } from './store/employees';

export interface SetApprovalChainProps {
  /** null (or absent): the chain of every type without its own. */
  leaveTypeId?: string | null;
  steps: { kind: ApprovalStepConfig['kind']; userId?: string | null }[];
}

/**
 * Sets the organisation's approval chain for a leave type, or for every type: its ordered steps (`manager`, `hr`,
 * `user` with a member's userId). No steps removes it (one decision by a holder of hr.leave.decide, or the
 * default chain for a type). Requests already filed keep the chain they snapshotted. Audited.
 */
export async function setApprovalChain(ctx: TenantContext, props: SetApprovalChainProps) {
  const leaveTypeId = props.leaveTypeId ?? null;
  if (leaveTypeId) await findLeaveType(ctx, leaveTypeId);
  const steps: ApprovalStepConfig[] = [];
  for (const [i, step] of props.steps.entries()) {
    const userId = step.userId ?? null;
    if (step.kind === 'user') {
      if (!userId) throw invalidField(`steps[${i}].userId`, 'is required for a user step');
      if (!(await isMember(ctx.em, userId)))
        throw invalidField(`steps[${i}].userId`, 'is not a member of the organisation');
    } else if (userId) throw invalidField(`steps[${i}].userId`, `is only given for a user step, not ${step.kind}`);
    steps.push({ kind: step.kind, userId });
  }
  await ctx.em.transactional(async (em) => {
    if (steps.length) await upsertApprovalChain(em, ctx.tenantId, leaveTypeId, steps, ctx.userId);
    else await deleteApprovalChain(em, leaveTypeId);
    audit(em, {
      action: 'hr.approval_chain.updated',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'hr_approval_chain',
      targetId: leaveTypeId ?? ctx.tenantId,
      data: { leaveTypeId, steps: steps.map((s) => s.kind) },
    });
  });
  ctx.em.clear();
  return approvalChains(ctx.em);
}
