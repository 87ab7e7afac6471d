import {
  HrApprovalChain,
  HrApprovalDelegation,
  HrLeaveApproval,
  type ApprovalStepConfig,
} from '../../../entities/hr/approval';
import { newId } from '../../../entities/base';
import type { Em } from '../../../lib/db';

/** The approval statements: the organisation's chains and the decided steps of requests (append-only). */

/** Every chain of the organisation (one for all types, one per type), oldest first. */
export const approvalChains = (em: Em) => em.find(HrApprovalChain, {}, { orderBy: { id: 'asc' } });

/** Sets the chain of a type (null: every type): insert or replace its steps. */
export async function upsertApprovalChain(
  em: Em,
  tenantId: string,
  leaveTypeId: string | null,
  steps: ApprovalStepConfig[],
  updatedBy: string | null,
): Promise<void> {
  const now = new Date();
  await em.execute(
    `insert into hr_approval_chains (id, tenant_id, created_at, updated_at, updated_by, leave_type_id, steps) values (?, ?, ?, ?, ?, ?, ?::jsonb)
     on conflict (tenant_id, leave_type_id) do update set steps = excluded.steps, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    [newId(), tenantId, now, now, updatedBy, leaveTypeId, JSON.stringify(steps)],
  );
}

/** Removes the chain of a type (null: the default). */
export const deleteApprovalChain = (em: Em, leaveTypeId: string | null) =>
  em.nativeDelete(HrApprovalChain, { leaveTypeId });

/** The decided steps of a request, in order. */
export const approvalsOf = (em: Em, leaveRequestId: string) =>
  em.find(HrLeaveApproval, { leaveRequestId }, { orderBy: { step: 'asc' } });

// ---- delegations

/** The delegations from or to an account (every one with null), latest start first. */
export const delegationsOf = (em: Em, userId: string | null) =>
  em.find(HrApprovalDelegation, userId ? { $or: [{ fromUserId: userId }, { toUserId: userId }] } : {}, {
    orderBy: { startsOn: 'desc', id: 'desc' },
    limit: 500,
  });

/** Whether `toUserId` decides for `fromUserId` on the local day `date`. */
export const delegatedOn = async (em: Em, fromUserId: string, toUserId: string, date: string): Promise<boolean> =>
  (await em.count(HrApprovalDelegation, { fromUserId, toUserId, startsOn: { $lte: date }, endsOn: { $gte: date } })) >
  0;

/** A delegation of the organisation, if any. */
export const delegationById = (em: Em, id: string) => em.findOne(HrApprovalDelegation, { id });
