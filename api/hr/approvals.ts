import { approvalChains } from '../../domain/hr/store/approvals';
import { decideLeaveRequest } from '../../domain/hr/decideLeaveRequest';
import { setApprovalChain } from '../../domain/hr/setApprovalChain';
import type { ModuleMount } from '../http/mount';
import { IdParams } from '../http/dtos';
import { prose } from '../http/docs';
import { delegateApprovals, listDelegations, revokeDelegation } from '../../domain/hr/delegateApprovals';
import { created, noContent } from '../http/routes';
import {
  ApprovalChainsView,
  ApprovalChainView,
  DelegationsView,
  DelegationView,
  SetApprovalChainBody,
} from './approvalViews';
import { DelegateApprovalsBody, LeaveDecisionBody } from './dtos';
import { LeaveRequestView } from './views';

const chainsDocs = prose`
  The organisation's approval chains for leave requests: one for every type (leaveTypeId null) and at most one per
  leave type, which replaces it for that type. A request snapshots its chain when filed (approvalChain): the
  manager's account, the named members, HR; a step the employee would decide, or a manager step without a manager
  with an account, is left out. Without a chain one holder of hr.leave.decide decides.
`;

const approveDocs = prose`
  Decides the step of the approval chain the request waits for (approvedSteps + 1): its manager's or named
  member's account, or any holder of hr.leave.decide for an hr step (403 \`not_current_approver\` otherwise; for a
  request without a chain, a holder of hr.leave.decide). Each step is recorded once (append-only, unique per request
  and step, in order, by the database), audited (\`hr.leave.step_approved\` / \`step_refused\`) and notified
  (\`leave.step_approved\`); the last approval grants the request, the first refusal (reason required) refuses it and
  gives its days back, and only that final decision sends \`leave.decided\` (webhook and hub). Two approvers of one
  step at once: one wins, the other gets 409 \`leave_already_decided\`.
`;

const delegationDocs = prose`
  A member's approval steps (the manager and named-member steps of chains) decided by another member on some
  local days (Europe/Paris) while they are away: the delegate decides in the approver's name (the step records
  both; audited with onBehalfOf), the approver still may. Members delegate their own; holders of
  hr.employees.manage anyone's. Audited (\`hr.approval_delegation.created\`, \`revoked\`).
`;

/** Approval chains and the decisions of their steps. */
export function approvalRoutes({ routes }: ModuleMount): void {
  const r = routes('HR leave');
  const gate = { access: 'user', module: 'rh' } as const;

  r.get(
    '/api/rh/approval-chains',
    {
      ...gate,
      permission: 'hr.employees.manage',
      summary: 'Approval chains',
      description: chainsDocs,
      response: ApprovalChainsView,
    },
    async ({ ctx }) => ({ items: (await approvalChains(ctx.em)).map(ApprovalChainView.from) }),
  );

  r.put(
    '/api/rh/approval-chains',
    {
      ...gate,
      permission: 'hr.employees.manage',
      summary: 'Set an approval chain',
      description: `${chainsDocs} Setting one replaces that type's steps; [] removes it. Filed requests keep theirs. Audited (\`hr.approval_chain.updated\`).`,
      body: SetApprovalChainBody,
      response: ApprovalChainsView,
      errors: { 404: 'Unknown leaveTypeId' },
    },
    async ({ ctx, body }) => ({ items: (await setApprovalChain(ctx, body)).map(ApprovalChainView.from) }),
  );

  r.get(
    '/api/rh/approval-delegations',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'Approval delegations',
      description: `${delegationDocs} Lists those from or to the caller (every one for hr.employees.manage), latest first.`,
      response: DelegationsView,
    },
    async ({ ctx }) => ({ items: (await listDelegations(ctx)).map(DelegationView.from) }),
  );

  r.post(
    '/api/rh/approval-delegations',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'Delegate approvals',
      description: delegationDocs,
      body: DelegateApprovalsBody,
      response: DelegationView,
      status: 201,
      errors: { 403: "`permission_denied`: another member's approvals without hr.employees.manage" },
    },
    async ({ ctx, body }) => created(DelegationView.from(await delegateApprovals(ctx, body))),
  );

  r.delete(
    '/api/rh/approval-delegations/:id',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'End a delegation',
      description: "Its approver, or a holder of hr.employees.manage (another member's: 404). Audited.",
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await revokeDelegation(ctx, params.id);
      return noContent();
    },
  );

  r.post(
    '/api/rh/leave-requests/:id/approvals',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'Approve or refuse the current step of a leave request',
      description: approveDocs,
      params: IdParams,
      body: LeaveDecisionBody,
      response: LeaveRequestView,
      errors: { 403: '`own_request`, `not_current_approver`', 409: '`leave_already_decided`' },
    },
    async ({ ctx, params, body }) => LeaveRequestView.from(await decideLeaveRequest(ctx, params.id, body)),
  );
}
