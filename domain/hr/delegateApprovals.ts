import { HrApprovalDelegation } from '../../entities/hr/approval';
import { addDays, dayNumber, DEFAULT_TIME_ZONE, todayIn } from '../../lib/calendar';
import { forbidden, invalidField, notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { holds } from './lookup';
import { delegationById, delegationsOf } from './store/approvals';
import { isMember } from './store/employees';

/** Longest delegation, in days. */
export const MAX_DELEGATION_DAYS = 366;

/** Local days of delegations are read in the organisation's default zone. */
export const delegationToday = () => todayIn(DEFAULT_TIME_ZONE);

export interface DelegateProps {
  toUserId: string;
  startsOn: string;
  endsOn: string;
  /** Another member's steps: holders of hr.employees.manage only; default the caller's. */
  fromUserId?: string;
}

/**
 * Lets another member decide the caller's approval steps (manager and named-member steps) on some local days,
 * while they are away: the delegate decides in their name (the step records both), the approver still may.
 * Holders of hr.employees.manage set one for any member. Audited `hr.approval_delegation.created`.
 */
export async function delegateApprovals(ctx: TenantContext, props: DelegateProps): Promise<HrApprovalDelegation> {
  const from = props.fromUserId ?? ctx.userId;
  if (!from) throw forbidden('permission_denied', 'A delegation is made by a member');
  if (from !== ctx.userId && !(await holds(ctx, 'hr.employees.manage')))
    throw forbidden('permission_denied', "Delegating another member's approvals needs hr.employees.manage");
  if (props.toUserId === from) throw invalidField('toUserId', 'must be another member than the approver');
  if (props.endsOn < props.startsOn) throw invalidField('endsOn', 'must be on or after startsOn');
  if (dayNumber(props.endsOn) - dayNumber(props.startsOn) >= MAX_DELEGATION_DAYS)
    throw invalidField('endsOn', `a delegation lasts at most ${MAX_DELEGATION_DAYS} days`);
  if (props.endsOn < addDays(delegationToday(), -1)) throw invalidField('endsOn', 'must not be in the past');
  for (const [field, id] of [
    ['toUserId', props.toUserId],
    ['fromUserId', from],
  ] as const)
    if (!(await isMember(ctx.em, id))) throw invalidField(field, 'is not a member of the organisation');
  return ctx.em.transactional(async (em) => {
    const delegation = em.create(HrApprovalDelegation, {
      tenantId: ctx.tenantId,
      fromUserId: from,
      toUserId: props.toUserId,
      startsOn: props.startsOn,
      endsOn: props.endsOn,
      createdBy: ctx.userId,
    });
    audit(em, {
      action: 'hr.approval_delegation.created',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'hr_approval_delegation',
      targetId: delegation.id,
      data: { fromUserId: from, toUserId: props.toUserId, startsOn: props.startsOn, endsOn: props.endsOn },
    });
    return delegation;
  });
}

/** The delegations from or to the caller; every one for holders of hr.employees.manage. */
export async function listDelegations(ctx: TenantContext): Promise<HrApprovalDelegation[]> {
  return delegationsOf(ctx.em, (await holds(ctx, 'hr.employees.manage')) ? null : ctx.userId);
}

/** Ends a delegation (its approver, or a holder of hr.employees.manage; another member's: 404). Audited. */
export async function revokeDelegation(ctx: TenantContext, id: string): Promise<void> {
  const delegation = await delegationById(ctx.em, id);
  if (!delegation || (delegation.fromUserId !== ctx.userId && !(await holds(ctx, 'hr.employees.manage'))))
    throw notFound('Delegation');
  await ctx.em.transactional(async (em) => {
    await em.nativeDelete(HrApprovalDelegation, { id });
    audit(em, {
      action: 'hr.approval_delegation.revoked',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'hr_approval_delegation',
      targetId: id,
      data: { fromUserId: delegation.fromUserId, toUserId: delegation.toUserId },
    });
  });
}
