import { HrLeaveLedgerEntry, type LedgerKind } from '../../entities/hr/leave';
import type { Em } from '../../lib/db';

export interface Movement {
  tenantId: string;
  employeeId: string;
  leaveTypeId: string;
  kind: LedgerKind;
  /** Signed: credits positive, debits negative. */
  days: number;
  period?: string | null;
  leaveRequestId?: string | null;
  reason?: string | null;
  createdBy?: string | null;
}

/** Appends a movement to the unit of work (the ledger is append-only: the database refuses any change). */
export function appendMovement(em: Em, m: Movement): HrLeaveLedgerEntry {
  return em.create(HrLeaveLedgerEntry, { ...m, period: m.period ?? null, leaveRequestId: m.leaveRequestId ?? null, reason: m.reason ?? null, createdBy: m.createdBy ?? null });
}

/** Balance of one type: the sum of its movements. */
export async function balanceOf(em: Em, employeeId: string, leaveTypeId: string): Promise<number> {
  const rows = await em.execute<{ total: string | null }[]>('select sum(days) as total from hr_leave_ledger where employee_id = ? and leave_type_id = ?', [employeeId, leaveTypeId]);
  return Number(rows[0]?.total ?? 0);
}

/**
 * The days a request holds in the ledger (what its `request` movement took), which its refusal or cancellation
 * gives back: whatever its type keeps or counts now, since a type may have been edited since it was filed.
 */
export async function heldBy(em: Em, leaveRequestId: string): Promise<number> {
  const rows = await em.execute<{ total: string | null }[]>("select -sum(days) as total from hr_leave_ledger where leave_request_id = ? and kind = 'request'", [leaveRequestId]);
  return Number(rows[0]?.total ?? 0);
}

/** Serialises balance-changing work on one employee inside the current transaction. */
export const lockEmployee = (em: Em, employeeId: string) => em.execute('select pg_advisory_xact_lock(hashtext(?))', [`hr_employee:${employeeId}`]);
