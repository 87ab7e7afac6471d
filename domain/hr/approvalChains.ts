import type { ApprovalStepConfig } from '../../entities/hr/approval';
import type { ApprovalStepSnapshot } from '../../entities/hr/leave';

/**
 * The rules of approval chains (pure): which chain a request follows, what it snapshots when filed, and who
 * decides its current step. A request is granted once every step approved it, refused at the first refusal.
 */

/** The chain of a leave type: its own, else the organisation's for every type, else none (one decision). */
export function chainFor(
  chains: { leaveTypeId?: string | null; steps: ApprovalStepConfig[] }[],
  leaveTypeId: string,
): ApprovalStepConfig[] {
  return (chains.find((c) => c.leaveTypeId === leaveTypeId) ?? chains.find((c) => !c.leaveTypeId))?.steps ?? [];
}

/**
 * The steps a request filed now follows, each with the account that decides it: the manager's account for
 * `manager`, the named member for `user`, anyone holding hr.leave.decide for `hr` (null). Nobody decides their own
 * request, so a step the employee would decide is left out, as is a `manager` step of an employee without a
 * manager with an account; two steps in a row of the same approver are one.
 */
export function snapshotChain(
  steps: ApprovalStepConfig[],
  who: { employeeUserId: string | null; managerUserId: string | null },
): ApprovalStepSnapshot[] {
  const out: ApprovalStepSnapshot[] = [];
  for (const step of steps) {
    const userId = step.kind === 'manager' ? who.managerUserId : step.kind === 'user' ? step.userId : null;
    if (step.kind !== 'hr' && (!userId || userId === who.employeeUserId)) continue;
    const last = out.at(-1);
    if (last && last.kind === step.kind && last.userId === userId) continue;
    out.push({ kind: step.kind, userId });
  }
  return out;
}

/** The step a pending request waits for (0-based), or null when it has no chain. */
export const currentStep = (chain: ApprovalStepSnapshot[], approvedSteps: number): number | null =>
  chain.length && approvedSteps < chain.length ? approvedSteps : null;

/** Whether the caller decides a step: its account, or for `hr` any holder of hr.leave.decide. */
export const decidesStep = (step: ApprovalStepSnapshot, caller: { userId: string | null; holdsDecide: boolean }) =>
  step.kind === 'hr' ? caller.holdsDecide : caller.userId !== null && caller.userId === step.userId;
