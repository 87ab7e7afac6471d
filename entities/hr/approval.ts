import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

/**
 * Who approves a step of a leave request: `manager`, the employee's manager (their account); `hr`, any holder of
 * hr.leave.decide; `user`, one named member.
 */
export const approverKinds = ['manager', 'hr', 'user'] as const;
export type ApproverKind = (typeof approverKinds)[number];

/** A step of a chain as configured: its kind, and the member for a `user` step. */
export interface ApprovalStepConfig {
  kind: ApproverKind;
  userId: string | null;
}

/** Longest approval chain. */
export const MAX_APPROVAL_STEPS = 5;

/**
 * The organisation's approval chain for leave requests, ordered: one for every type (`leaveTypeId` null) and
 * at most one per leave type, which replaces it for that type. A request snapshots its chain when filed.
 */
export const HrApprovalChain = defineEntity({
  name: 'HrApprovalChain',
  tableName: 'hr_approval_chains',
  filters: tenantFilter,
  uniques: [
    {
      name: 'hr_approval_chains_type_unique',
      expression: `create unique index "hr_approval_chains_type_unique" on "hr_approval_chains" ("tenant_id", "leave_type_id") nulls not distinct`,
    },
  ],
  properties: {
    ...tenantColumns(),
    leaveTypeId: p.uuid().nullable(),
    steps: p.json<ApprovalStepConfig[]>(),
    updatedBy: p.uuid().nullable(),
    updatedAt: updatedAt(),
  },
});
export type HrApprovalChain = InferEntity<typeof HrApprovalChain>;

export const approvalDecisions = ['approved', 'refused'] as const;
export type ApprovalDecision = (typeof approvalDecisions)[number];

/**
 * One decided step of a leave request's chain (`step` from 1). Append-only (the database refuses any change),
 * unique per request and step (two approvers of one step at once: one wins), and in order: the database refuses
 * a step whose previous one is not approved, or any step after a refusal.
 */
export const HrLeaveApproval = defineEntity({
  name: 'HrLeaveApproval',
  tableName: 'hr_leave_approvals',
  filters: tenantFilter,
  uniques: [{ properties: ['leaveRequestId', 'step'] }],
  properties: {
    ...tenantColumns(),
    leaveRequestId: p.uuid(),
    step: p.smallint(),
    kind: p.enum([...approverKinds]),
    decision: p.enum([...approvalDecisions]),
    decidedBy: p.uuid().nullable(),
    /** The approver a delegate decided for (HrApprovalDelegation); null when the approver decided. */
    onBehalfOf: p.uuid().nullable(),
    reason: p.string().length(1000).nullable(),
  },
});
export type HrLeaveApproval = InferEntity<typeof HrLeaveApproval>;

/**
 * A member's approval steps (manager and named-member steps) decided by another member on the local days
 * `startsOn`..`endsOn` (Europe/Paris), while they are away. The approver keeps deciding too.
 */
export const HrApprovalDelegation = defineEntity({
  name: 'HrApprovalDelegation',
  tableName: 'hr_approval_delegations',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'fromUserId'] }],
  checks: [
    { name: 'hr_approval_delegations_span_check', expression: '(ends_on >= starts_on)' },
    { name: 'hr_approval_delegations_self_check', expression: '(from_user_id <> to_user_id)' },
  ],
  properties: {
    ...tenantColumns(),
    fromUserId: p.uuid(),
    toUserId: p.uuid(),
    startsOn: p.date(),
    endsOn: p.date(),
    createdBy: p.uuid().nullable(),
  },
});
export type HrApprovalDelegation = InferEntity<typeof HrApprovalDelegation>;
