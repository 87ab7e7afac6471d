import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';
import type { ApproverKind } from './approval';

/** A step of a request's approval chain: its kind and the account that decides it (null for `hr`: any holder). */
export interface ApprovalStepSnapshot {
  kind: ApproverKind;
  userId: string | null;
}

/**
 * How a leave type counts its days, both when it accrues and when a request spends them (Code du travail
 * L3141-3): `ouvrables`, Monday to Saturday (30 a year, 2.5 a month: every jour ouvrable from the first day off
 * to the return is taken, so a week off costs 6); `ouvres`, the days the employee works (25 a year, 2.08 a month).
 */
export const leaveCountings = ['ouvrables', 'ouvres'] as const;
export type LeaveCounting = (typeof leaveCountings)[number];

/**
 * A kind of leave of the organisation (paid leave, RTT, sick, unpaid ...). `tracksBalance` types are
 * counted in the ledger (a request holds its days there); `accrualDaysPerMonth` is credited monthly, in the
 * type's `counting`. An archived type takes no new request nor accrual; its history and balance stay.
 */
/** Column sizes of leave texts (type code and name; a request's comment and reasons), which the request bodies take too. */
export const LEAVE_TEXT_LENGTHS = { code: 40, name: 120, text: 1000 } as const;

export const HrLeaveType = defineEntity({
  name: 'HrLeaveType',
  tableName: 'hr_leave_types',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'code'] }],
  properties: {
    ...tenantColumns(),
    code: p.string().length(LEAVE_TEXT_LENGTHS.code),
    name: p.string().length(LEAVE_TEXT_LENGTHS.name),
    paid: p.boolean(),
    tracksBalance: p.boolean(),
    /** Days credited each month by the accrual job (paid leave: 2.5); 0 for none. */
    accrualDaysPerMonth: p.decimal('number').precision(5).scale(2).default(0),
    /** Whether the RTT generation job credits this type. */
    rtt: p.boolean().default(false),
    counting: p.enum([...leaveCountings]).default('ouvres'),
    /** Set when archived: no new requests or accruals from then on. */
    archivedAt: p.datetime().nullable(),
  },
});
export type HrLeaveType = InferEntity<typeof HrLeaveType>;

export const halves = ['morning', 'afternoon'] as const;
export type Half = (typeof halves)[number];
/**
 * pending -> granted | refused | cancelled; granted -> cancelled. refused and cancelled are final.
 * Live (pending, granted) requests hold their days and half days; final ones hold nothing.
 */
export const leaveStatuses = ['pending', 'granted', 'refused', 'cancelled'] as const;
export type LeaveStatus = (typeof leaveStatuses)[number];

/**
 * A request of leave from `startDate` (from its afternoon when startHalf is afternoon) to `endDate` (until its
 * noon when endHalf is morning). The database refuses two live (pending or granted) requests of one employee
 * that share a half day, and a cancelled request without its cancellation time (or the reverse).
 */
export const HrLeaveRequest = defineEntity({
  name: 'HrLeaveRequest',
  tableName: 'hr_leave_requests',
  filters: tenantFilter,
  indexes: [
    { properties: ['tenantId', 'status', 'id'] },
    { properties: ['employeeId', 'startDate'] },
    {
      name: 'hr_leave_requests_no_overlap',
      expression: `alter table "hr_leave_requests" add constraint "hr_leave_requests_no_overlap" exclude using gist ("employee_id" with =, int4range(("start_date" - date '2000-01-01') * 2 + (case when "start_half" = 'afternoon' then 1 else 0 end), ("end_date" - date '2000-01-01') * 2 + (case when "end_half" = 'morning' then 0 else 1 end), '[]') with &&) where ("status" in ('pending', 'granted'))`,
    },
  ],
  checks: [
    {
      name: 'hr_leave_requests_span_check',
      expression: `"end_date" > "start_date" or ("end_date" = "start_date" and not ("start_half" = 'afternoon' and "end_half" = 'morning'))`,
    },
    {
      name: 'hr_leave_requests_cancelled_check',
      expression: `("status" = 'cancelled') = ("cancelled_at" is not null)`,
    },
    {
      name: 'hr_leave_requests_approved_steps_check',
      expression: `"approved_steps" >= 0 and "approved_steps" <= jsonb_array_length("approval_chain")`,
    },
  ],
  properties: {
    ...tenantColumns(),
    employeeId: p.uuid(),
    leaveTypeId: p.uuid(),
    startDate: p.date(),
    startHalf: p.enum([...halves]).default('morning'),
    endDate: p.date(),
    endHalf: p.enum([...halves]).default('afternoon'),
    /** Days the request takes in its type's counting when filed (halves count 0.5; public holidays are not counted). */
    days: p.decimal('number').precision(6).scale(2),
    comment: p.string().length(LEAVE_TEXT_LENGTHS.text).nullable(),
    status: p.enum([...leaveStatuses]).default('pending'),
    requestedBy: p.uuid().nullable(),
    decidedBy: p.uuid().nullable(),
    decidedAt: p.datetime().nullable(),
    decisionReason: p.string().length(LEAVE_TEXT_LENGTHS.text).nullable(),
    /** Who cancelled it (the employee withdrawing it, or a manager recalling it), when and why. */
    cancelledBy: p.uuid().nullable(),
    cancelledAt: p.datetime().nullable(),
    cancellationReason: p.string().length(LEAVE_TEXT_LENGTHS.text).nullable(),
    /** The approval chain snapshot when filed (empty: one decision by a holder of hr.leave.decide). */
    approvalChain: p.json<ApprovalStepSnapshot[]>().default('[]'),
    /** How many steps of the chain approved it so far. */
    approvedSteps: p.smallint().default(0),
  },
});
export type HrLeaveRequest = InferEntity<typeof HrLeaveRequest>;

export const ledgerKinds = [
  'accrual',
  'request',
  'refusal_reversal',
  'cancellation',
  'rtt_generation',
  'adjustment',
  'sick_accrual',
  'expiry',
  'fractionnement',
  'settlement',
] as const;
export type LedgerKind = (typeof ledgerKinds)[number];

/**
 * One movement of leave days (signed). Append-only: a trigger refuses UPDATE and DELETE. The balance of a type
 * is the sum of its movements. Generated movements carry their period ('2026-03'), unique per employee, type
 * and kind, so a job run twice credits once (a month's `accrual` and `sick_accrual` are two kinds; a closed reference
 * period's `expiry` carries the first month of the next). A request's held days come back at most once (one
 * `refusal_reversal` or `cancellation` per request, unique in the database).
 */
export const HrLeaveLedgerEntry = defineEntity({
  name: 'HrLeaveLedgerEntry',
  tableName: 'hr_leave_ledger',
  filters: tenantFilter,
  indexes: [{ properties: ['employeeId', 'leaveTypeId'] }],
  uniques: [
    {
      name: 'hr_leave_ledger_period_unique',
      expression: `create unique index "hr_leave_ledger_period_unique" on "hr_leave_ledger" ("employee_id", "leave_type_id", "kind", "period") where "period" is not null`,
    },
    {
      name: 'hr_leave_ledger_reversal_unique',
      expression: `create unique index "hr_leave_ledger_reversal_unique" on "hr_leave_ledger" ("leave_request_id") where "kind" in ('refusal_reversal', 'cancellation')`,
    },
  ],
  properties: {
    ...tenantColumns(),
    employeeId: p.uuid(),
    leaveTypeId: p.uuid(),
    kind: p.enum([...ledgerKinds]),
    days: p.decimal('number').precision(6).scale(2),
    period: p.string().length(7).nullable(),
    leaveRequestId: p.uuid().nullable(),
    reason: p.string().length(1000).nullable(),
    /** The rule the movement applies (domain/hr/paidLeave.ts: monthly_accrual, pro_rata ...); null before they were named. */
    rule: p.string().length(40).nullable(),
    createdBy: p.uuid().nullable(),
  },
});
export type HrLeaveLedgerEntry = InferEntity<typeof HrLeaveLedgerEntry>;
