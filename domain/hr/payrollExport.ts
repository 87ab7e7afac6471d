import type { PayrollCodeMapping, PayrollTimeVariable } from '../../entities/hr/payroll';
import type { HrPayrollMonthSummary } from '../../entities/hr/payroll';
import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';
import { closedMonth, monthSummaries } from './store/payroll';

/** One payroll variable of an employee: its name, the code of the payroll software, the value and its unit. */
export interface PayrollVariable {
  variable: string;
  /** The leave type's code (leave variables), '' otherwise. */
  leaveType: string;
  code: string;
  value: number;
  unit: 'hours' | 'days';
}

export interface PayrollEmployeeExport {
  employeeId: string;
  lastName: string;
  firstName: string;
  workedMinutes: number;
  nightMinutes: number;
  sundayMinutes: number;
  overtimeFirstMinutes: number;
  overtimeSecondMinutes: number;
  absences: HrPayrollMonthSummary['absences'];
  balances: HrPayrollMonthSummary['balances'];
  variables: PayrollVariable[];
}

export interface PayrollExport {
  month: string;
  closedAt: Date;
  employees: PayrollEmployeeExport[];
}

/** A CSV line of the export: one per employee and mapped variable. */
export type PayrollCsvLine = {
  month: string;
  employeeId: string;
  lastName: string;
  firstName: string;
} & PayrollVariable;

export const payrollCsvColumns: (keyof PayrollCsvLine)[] = [
  'month',
  'employeeId',
  'lastName',
  'firstName',
  'variable',
  'leaveType',
  'code',
  'value',
  'unit',
];

const hours = (minutes: number) => Math.round((minutes / 60) * 100) / 100;

const TIME_MINUTES: Record<PayrollTimeVariable, (s: HrPayrollMonthSummary) => number> = {
  workedHours: (s) => s.workedMinutes,
  overtimeFirstRateHours: (s) => s.overtimeFirstMinutes,
  overtimeSecondRateHours: (s) => s.overtimeSecondMinutes,
  nightHours: (s) => s.nightMinutes,
  sundayHours: (s) => s.sundayMinutes,
};

/**
 * The mapped variables of a frozen summary (pure), in a fixed order: the time variables, then each mapped leave
 * type in the mapping's order (days, hours, balance). A variable without a code is left out; one with a code is
 * given even when 0.
 */
export function payrollVariables(summary: HrPayrollMonthSummary, codes: PayrollCodeMapping): PayrollVariable[] {
  const out: PayrollVariable[] = [];
  for (const [variable, minutes] of Object.entries(TIME_MINUTES) as [
    PayrollTimeVariable,
    (s: HrPayrollMonthSummary) => number,
  ][]) {
    const code = codes.time[variable];
    if (code) out.push({ variable, leaveType: '', code, value: hours(minutes(summary)), unit: 'hours' });
  }
  for (const t of codes.leaveTypes) {
    const leaveType = t.leaveTypeCode ?? t.leaveTypeId;
    const absence = summary.absences.find((a) => a.leaveTypeId === t.leaveTypeId);
    const balance = summary.balances.find((b) => b.leaveTypeId === t.leaveTypeId);
    if (t.daysCode)
      out.push({ variable: 'leaveDays', leaveType, code: t.daysCode, value: absence?.days ?? 0, unit: 'days' });
    if (t.hoursCode)
      out.push({
        variable: 'leaveHours',
        leaveType,
        code: t.hoursCode,
        value: hours(absence?.minutes ?? 0),
        unit: 'hours',
      });
    if (t.balanceCode)
      out.push({ variable: 'leaveBalance', leaveType, code: t.balanceCode, value: balance?.days ?? 0, unit: 'days' });
  }
  return out;
}

/**
 * The payroll export of a closed month: its frozen summaries, by name, each with its variables mapped to the codes
 * frozen at closing (so exporting again gives the same bytes). 409 `month_not_closed` before it is closed.
 */
export async function exportPayrollMonth(ctx: TenantContext, month: string): Promise<PayrollExport> {
  const closed = await closedMonth(ctx.em, month);
  if (!closed) throw conflict('month_not_closed', `${month} is not closed: close it first (POST .../close)`);
  const summaries = await monthSummaries(ctx.em, month);
  return {
    month,
    closedAt: closed.createdAt,
    employees: summaries.map((s) => ({
      employeeId: s.employeeId,
      lastName: s.lastName,
      firstName: s.firstName,
      workedMinutes: s.workedMinutes,
      nightMinutes: s.nightMinutes,
      sundayMinutes: s.sundayMinutes,
      overtimeFirstMinutes: s.overtimeFirstMinutes,
      overtimeSecondMinutes: s.overtimeSecondMinutes,
      absences: s.absences,
      balances: s.balances,
      variables: payrollVariables(s, closed.codes),
    })),
  };
}

/** The CSV lines of an export: one per employee and variable, in the export's order. */
export const payrollCsvLines = (e: PayrollExport): PayrollCsvLine[] =>
  e.employees.flatMap((emp) =>
    emp.variables.map((v) => ({
      month: e.month,
      employeeId: emp.employeeId,
      lastName: emp.lastName,
      firstName: emp.firstName,
      ...v,
    })),
  );
