import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

/** The variables of a month summary with one code each (the leave types' days, hours and balance aside). */
export const payrollTimeVariables = [
  'workedHours',
  'overtimeFirstRateHours',
  'overtimeSecondRateHours',
  'nightHours',
  'sundayHours',
] as const;
export type PayrollTimeVariable = (typeof payrollTimeVariables)[number];

/** The codes of one leave type's variables in the payroll software (null: not exported). */
export interface PayrollLeaveCodes {
  leaveTypeId: string;
  daysCode: string | null;
  hoursCode: string | null;
  balanceCode: string | null;
  /** The leave type's code when the month was closed (in a closed month's frozen mapping only). */
  leaveTypeCode?: string;
}

/** The organisation's mapping of variables to its payroll software's codes (null: not exported). */
export interface PayrollCodeMapping {
  time: Record<PayrollTimeVariable, string | null>;
  leaveTypes: PayrollLeaveCodes[];
}

/** Longest payroll code. */
export const PAYROLL_CODE_LENGTH = 20;

/** The organisation's payroll code mapping (one row; absent: nothing mapped). */
export const HrPayrollCodes = defineEntity({
  name: 'HrPayrollCodes',
  tableName: 'hr_payroll_codes',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId'] }],
  properties: {
    ...tenantColumns(),
    codes: p.json<PayrollCodeMapping>(),
    updatedBy: p.uuid().nullable(),
    updatedAt: updatedAt(),
  },
});
export type HrPayrollCodes = InferEntity<typeof HrPayrollCodes>;

/**
 * A closed payroll month of the organisation (`month`: YYYY-MM), with the code mapping as it was at closing (so a
 * re-export gives the same file). Once per organisation and month (the unique key: two closes at once, one wins);
 * immutable (the triggers of the other HR records refuse any UPDATE, DELETE or TRUNCATE).
 */
export const HrPayrollMonth = defineEntity({
  name: 'HrPayrollMonth',
  tableName: 'hr_payroll_months',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'month'] }],
  checks: [{ name: 'hr_payroll_months_month_check', expression: `"month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'` }],
  properties: {
    ...tenantColumns(),
    month: p.string().length(7),
    closedBy: p.uuid().nullable(),
    codes: p.json<PayrollCodeMapping>(),
  },
});
export type HrPayrollMonth = InferEntity<typeof HrPayrollMonth>;

/** A leave type's absence of the month: days in its counting, minutes the schedule planned. */
export interface PayrollAbsenceRow {
  leaveTypeId: string;
  code: string;
  days: number;
  minutes: number;
}

/** A leave type's balance at the month's end (days). */
export interface PayrollBalanceRow {
  leaveTypeId: string;
  code: string;
  days: number;
}

/**
 * An employee's frozen summary of a closed month (domain/hr/payrollMonth.ts): names as they were at closing,
 * minutes worked, night and Sunday minutes, overtime at each rate, absences by leave type and the balances at the
 * month's end. Written with its month, once per employee; immutable like the month.
 */
export const HrPayrollMonthSummary = defineEntity({
  name: 'HrPayrollMonthSummary',
  tableName: 'hr_payroll_month_summaries',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'month', 'employeeId'] }],
  properties: {
    ...tenantColumns(),
    month: p.string().length(7),
    employeeId: p.uuid(),
    firstName: p.string().length(100),
    lastName: p.string().length(100),
    workedMinutes: p.integer(),
    nightMinutes: p.integer(),
    sundayMinutes: p.integer(),
    overtimeFirstMinutes: p.integer(),
    overtimeSecondMinutes: p.integer(),
    absences: p.json<PayrollAbsenceRow[]>(),
    balances: p.json<PayrollBalanceRow[]>(),
  },
});
export type HrPayrollMonthSummary = InferEntity<typeof HrPayrollMonthSummary>;
