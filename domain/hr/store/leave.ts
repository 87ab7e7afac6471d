import { newId } from '../../../entities/base';
import { HrLeaveLedgerEntry, HrLeaveRequest, HrLeaveType, type LedgerKind } from '../../../entities/hr/leave';
import type { Em } from '../../../lib/db';
import { lean, preparedRead } from '../../../lib/lean';

/** The leave statements: the ledger (append-only), leave requests and leave types. */

// ---- ledger

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
  /** The rule applied (domain/hr/paidLeave.ts). */
  rule?: string | null;
  createdBy?: string | null;
}

/** Appends a movement to the unit of work (the ledger is append-only: the database refuses any change). */
export function appendMovement(em: Em, m: Movement): HrLeaveLedgerEntry {
  return em.create(HrLeaveLedgerEntry, {
    ...m,
    period: m.period ?? null,
    leaveRequestId: m.leaveRequestId ?? null,
    reason: m.reason ?? null,
    rule: m.rule ?? null,
    createdBy: m.createdBy ?? null,
  });
}

/** Balance of one type: the sum of its movements. */
export async function balanceOf(em: Em, employeeId: string, leaveTypeId: string): Promise<number> {
  const rows = await em.execute<{ total: string | null }[]>(
    'select sum(days) as total from hr_leave_ledger where employee_id = ? and leave_type_id = ?',
    [employeeId, leaveTypeId],
  );
  return Number(rows[0]?.total ?? 0);
}

/**
 * The days a request holds in the ledger (what its `request` movement took), which its refusal or cancellation
 * gives back: whatever its type keeps or counts now, since a type may have been edited since it was filed.
 */
export async function heldBy(em: Em, leaveRequestId: string): Promise<number> {
  const rows = await em.execute<{ total: string | null }[]>(
    "select -sum(days) as total from hr_leave_ledger where leave_request_id = ? and kind = 'request'",
    [leaveRequestId],
  );
  return Number(rows[0]?.total ?? 0);
}

/** Serialises balance-changing work on one employee inside the current transaction. */
export const lockEmployee = (em: Em, employeeId: string) =>
  em.execute('select pg_advisory_xact_lock(hashtext(?))', [`hr_employee:${employeeId}`]);

/** Movements shown with a balance. */
export const BALANCE_MOVEMENTS = 100;

// Lean reads (docs/database-path.md): the pending requests' days and the latest movements (the ledger's sums per
// type are splitSumsOfEmployee below, an aggregate: preparedRead, the tenant bound as $1 in the text).
export const pendingDaysOf = lean(HrLeaveRequest, {
  columns: ['leaveTypeId', 'days'],
  where: "employee_id = $1 and status = 'pending'",
});
export const latestMovements = lean(HrLeaveLedgerEntry, {
  where: 'employee_id = $1',
  orderBy: 'id desc',
  limit: BALANCE_MOVEMENTS,
});

/**
 * What `accrual` and `sick_accrual` movements of the periods `from` <= period < `before` credited, by employee
 * and type: in all, and of it on sick leave.
 */
export async function accruedBetween(
  em: Em,
  tenantId: string,
  from: string,
  before: string,
  typeIds: string[],
): Promise<{ employeeId: string; leaveTypeId: string; days: number; sick: number }[]> {
  const rows = await em.execute<{ employee_id: string; leave_type_id: string; total: string; sick: string | null }[]>(
    `select employee_id, leave_type_id, sum(days) as total, sum(days) filter (where kind = 'sick_accrual') as sick from hr_leave_ledger where tenant_id = ? and kind in ('accrual', 'sick_accrual') and period >= ? and period < ? and leave_type_id = any(?::uuid[]) group by employee_id, leave_type_id`,
    [tenantId, from, before, `{${typeIds.join(',')}}`],
  );
  return rows.map((r) => ({
    employeeId: r.employee_id,
    leaveTypeId: r.leave_type_id,
    days: Number(r.total),
    sick: Number(r.sick ?? 0),
  }));
}

/**
 * The two sums splitBalance reads (N-1 / N, domain/hr/paidLeave.ts), by employee and type: the credits
 * (`accrual`, `sick_accrual`) of the periods from `firstMonth` on, and every other movement.
 */
export async function splitSumsOf(
  em: Em,
  tenantId: string,
  firstMonth: string,
  typeIds: string[],
): Promise<{ employeeId: string; leaveTypeId: string; current: number; rest: number }[]> {
  const rows = await em.execute<
    { employee_id: string; leave_type_id: string; current: string | null; rest: string | null }[]
  >(
    `select employee_id, leave_type_id, ${CURRENT_CREDITS} as current, ${OTHER_MOVEMENTS} as rest from hr_leave_ledger where tenant_id = ? and leave_type_id = any(?::uuid[]) group by employee_id, leave_type_id`,
    [firstMonth, firstMonth, tenantId, `{${typeIds.join(',')}}`],
  );
  return rows.map((r) => ({
    employeeId: r.employee_id,
    leaveTypeId: r.leave_type_id,
    current: Number(r.current ?? 0),
    rest: Number(r.rest ?? 0),
  }));
}
const IS_CURRENT_CREDIT = (p: string) => `(days > 0 and kind in ('accrual', 'sick_accrual') and period >= ${p})`;
const CURRENT_CREDITS = `sum(days) filter (where ${IS_CURRENT_CREDIT('?')})`;
const OTHER_MOVEMENTS = `sum(days) filter (where not ${IS_CURRENT_CREDIT('?')})`;

/** [tenantId, employeeId, firstMonth]: splitSumsOf of one employee, every type (the balance read). */
export const splitSumsOfEmployee = preparedRead<{ leave_type_id: string; current: string | null; rest: string | null }>(
  `select leave_type_id, sum(days) filter (where ${IS_CURRENT_CREDIT('$3')}) as current, sum(days) filter (where not ${IS_CURRENT_CREDIT('$3')}) as rest from hr_leave_ledger where tenant_id = $1 and employee_id = $2 group by leave_type_id`,
);

export interface GeneratedMovement {
  employeeId: string;
  leaveTypeId: string;
  days: number;
  reason: string;
  /** The rule applied (domain/hr/paidLeave.ts). */
  rule?: string;
}

/** Inserts a period's generated movements, skipping those already there (the partial unique index); how many were new. */
export async function insertGeneratedMovements(
  em: Em,
  tenantId: string,
  kind: 'accrual' | 'sick_accrual' | 'expiry' | 'rtt_generation' | 'fractionnement' | 'settlement',
  period: string,
  rows: GeneratedMovement[],
): Promise<number> {
  let inserted = 0;
  const now = new Date();
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    const values = chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
    const params = chunk.flatMap((r) => [
      newId(),
      tenantId,
      now,
      r.employeeId,
      r.leaveTypeId,
      kind,
      r.days,
      period,
      r.reason,
      r.rule ?? null,
    ]);
    const result = await em.execute<{ id: string }[]>(
      `insert into hr_leave_ledger (id, tenant_id, created_at, employee_id, leave_type_id, kind, days, period, reason, rule) values ${values} on conflict do nothing returning id`,
      params,
    );
    inserted += result.length;
  }
  return inserted;
}

// ---- leave requests

// A lean statement (docs/database-path.md): every combination of filters is one prepared statement.
/** $1 employee, $2 status, $3 type, $4 ending on or after, $5 starting on or before, $6 cursor, $7 limit; newest first. */
export const leaveRequestsPage = lean(HrLeaveRequest, {
  where: `($1::uuid is null or employee_id = $1) and ($2::text is null or status = $2) and ($3::uuid is null or leave_type_id = $3)
    and ($4::date is null or end_date >= $4) and ($5::date is null or start_date <= $5) and ($6::uuid is null or id < $6)`,
  orderBy: 'id desc',
  limitParam: '$7',
});

/** $1 employee ids, $2 last date, $3 first date: the half-day spans of granted leave touching the dates (availability). */
export const grantedLeaveOf = lean(HrLeaveRequest, {
  columns: ['employeeId', 'startDate', 'startHalf', 'endDate', 'endHalf'],
  where: "employee_id = any($1::uuid[]) and status = 'granted' and start_date <= $2::date and end_date >= $3::date",
});

/** grantedLeaveOf through the em (the RTT generation's unit of work). */
export const grantedLeaveBetween = (em: Em, employeeIds: string[], first: string, last: string) =>
  em.find(
    HrLeaveRequest,
    { employeeId: { $in: employeeIds }, status: 'granted', startDate: { $lte: last }, endDate: { $gte: first } },
    { fields: ['employeeId', 'startDate', 'startHalf', 'endDate', 'endHalf'] },
  );

// ---- leave types

// A lean statement (docs/database-path.md): listLeaveTypes reads it first.
export const leaveTypesByCode = lean(HrLeaveType, { orderBy: 'code asc' });

/** How many of the organisation's leave types have one of these codes. */
export const leaveTypesWithCodes = (em: Em, codes: string[]) => em.count(HrLeaveType, { code: { $in: codes } });

/** Inserts leave types, skipping the codes the organisation already has (safe concurrently). */
export async function insertLeaveTypesIfMissing(
  em: Em,
  tenantId: string,
  types: readonly Omit<HrLeaveType, 'id' | 'tenantId' | 'createdAt' | 'archivedAt'>[],
): Promise<void> {
  await em
    .createQueryBuilder(HrLeaveType)
    .insert(types.map((t) => ({ ...t, id: newId(), tenantId, createdAt: new Date() })))
    .onConflict(['tenant_id', 'code'])
    .ignore()
    .execute();
}

/** The live types that accrue every month. */
export const accruingLeaveTypes = (em: Em) =>
  em.find(HrLeaveType, { accrualDaysPerMonth: { $gt: 0 }, archivedAt: null });

/** The granted requests of a leave type touching the dates (the sick leave of a month's accrual). */
export const grantedLeaveOfTypeBetween = (em: Em, leaveTypeId: string, first: string, last: string) =>
  em.find(
    HrLeaveRequest,
    { leaveTypeId, status: 'granted', startDate: { $lte: last }, endDate: { $gte: first } },
    { fields: ['employeeId', 'startDate', 'startHalf', 'endDate', 'endHalf'] },
  );

/** The type RTT is credited to: the first by code with rtt set, not archived. */
export const rttLeaveType = (em: Em) =>
  em.findOne(HrLeaveType, { rtt: true, archivedAt: null }, { orderBy: { code: 'asc' } });
