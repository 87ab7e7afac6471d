import { newId } from '../../../entities/base';
import { HrEmployee } from '../../../entities/hr/employee';
import { HrLeaveRequest } from '../../../entities/hr/leave';
import {
  HrPayrollCodes,
  HrPayrollMonth,
  HrPayrollMonthSummary,
  type PayrollCodeMapping,
} from '../../../entities/hr/payroll';
import { HrWeekCounter } from '../../../entities/hr/timeCounter';
import type { Em } from '../../../lib/db';
import type { PayrollMonthSummary, PayrollMovement } from '../payrollMonth';

/** The payroll statements: the code mapping, closed months and their frozen summaries (immutable). */

/** The organisation's code mapping row, if any. */
export const payrollCodesRow = (em: Em) => em.findOne(HrPayrollCodes, {});

/** Writes the organisation's code mapping (insert or update of its one row); concurrent writers: the last wins. */
export async function upsertPayrollCodes(
  em: Em,
  tenantId: string,
  codes: PayrollCodeMapping,
  updatedBy: string | null,
): Promise<void> {
  const now = new Date();
  await em.execute(
    `insert into hr_payroll_codes (id, tenant_id, created_at, updated_at, updated_by, codes) values (?, ?, ?, ?, ?, ?::jsonb)
     on conflict (tenant_id) do update set codes = excluded.codes, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    [newId(), tenantId, now, now, updatedBy, JSON.stringify(codes)],
  );
}

/** A closed month of the organisation, if it is closed. */
export const closedMonth = (em: Em, month: string) => em.findOne(HrPayrollMonth, { month });

/** The frozen summaries of a closed month, by name then id (the export's order). */
export const monthSummaries = (em: Em, month: string) =>
  em.find(HrPayrollMonthSummary, { month }, { orderBy: { lastName: 'asc', firstName: 'asc', employeeId: 'asc' } });

/** Employees working during some day of `first`..`last`, with what a summary names them by. */
export const employeesOfMonth = (em: Em, first: string, last: string) =>
  em.find(
    HrEmployee,
    {
      $and: [
        { $or: [{ hireDate: null }, { hireDate: { $lte: last } }] },
        { $or: [{ endDate: null }, { endDate: { $gte: first } }] },
      ],
    },
    {
      fields: ['id', 'firstName', 'lastName', 'hireDate', 'endDate', 'timeZone', 'workTimeMode'],
      orderBy: { id: 'asc' },
    },
  );

/** The closed counters of some employees for the weeks of Mondays `firstMonday`..`lastMonday`. */
export const countersOfWeeks = (em: Em, employeeIds: string[], firstMonday: string, lastMonday: string) =>
  em.find(HrWeekCounter, { employeeId: { $in: employeeIds }, week: { $gte: firstMonday, $lte: lastMonday } });

/** The granted leave of some employees touching `first`..`last`. */
export const grantedLeaveBetween = (em: Em, employeeIds: string[], first: string, last: string) =>
  em.find(
    HrLeaveRequest,
    { employeeId: { $in: employeeIds }, status: 'granted', startDate: { $lte: last }, endDate: { $gte: first } },
    { fields: ['employeeId', 'leaveTypeId', 'startDate', 'startHalf', 'endDate', 'endHalf'] },
  );

/**
 * The ledger movements that may count at the end of `month` (periods up to it; others made before `latest`, the
 * month's end in the zone furthest behind), by employee: summed by type and period, those without a period made
 * before `earliest` (the month's end in the zone furthest ahead) summed together, the others one by one.
 */
export async function movementsUpTo(
  em: Em,
  employeeIds: string[],
  month: string,
  earliest: Date,
  latest: Date,
): Promise<Map<string, PayrollMovement[]>> {
  const rows = await em.execute<
    { employee_id: string; leave_type_id: string; period: string | null; created_at: Date; days: string }[]
  >(
    `select employee_id, leave_type_id, period, max(created_at) as created_at, sum(days) as days from hr_leave_ledger
     where employee_id = any(?::uuid[]) and ((period is not null and period <= ?) or (period is null and created_at < ?))
     group by employee_id, leave_type_id, period, case when period is null and created_at >= ? then id end`,
    [`{${employeeIds.join(',')}}`, month, latest, earliest],
  );
  const byEmployee = new Map<string, PayrollMovement[]>();
  for (const r of rows)
    (byEmployee.get(r.employee_id) ?? byEmployee.set(r.employee_id, []).get(r.employee_id)!).push({
      leaveTypeId: r.leave_type_id,
      period: r.period,
      createdAt: new Date(r.created_at),
      days: Number(r.days),
    });
  return byEmployee;
}

/** Inserts the closed month and its summaries (one transaction; the unique key refuses a second close). */
export async function insertClosedMonth(
  em: Em,
  tenantId: string,
  month: string,
  closedBy: string | null,
  codes: PayrollCodeMapping,
  summaries: (PayrollMonthSummary & { employeeId: string; firstName: string; lastName: string })[],
): Promise<Date> {
  const now = new Date();
  await em.execute(
    `insert into hr_payroll_months (id, tenant_id, created_at, month, closed_by, codes) values (?, ?, ?, ?, ?, ?::jsonb)`,
    [newId(), tenantId, now, month, closedBy, JSON.stringify(codes)],
  );
  const BATCH = 500;
  for (let i = 0; i < summaries.length; i += BATCH) {
    const batch = summaries.slice(i, i + BATCH);
    await em.execute(
      `insert into hr_payroll_month_summaries (id, tenant_id, created_at, month, employee_id, first_name, last_name, worked_minutes, night_minutes, sunday_minutes, overtime_first_minutes, overtime_second_minutes, absences, balances) values ${batch
        .map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb)')
        .join(', ')}`,
      batch.flatMap((s) => [
        newId(),
        tenantId,
        now,
        month,
        s.employeeId,
        s.firstName,
        s.lastName,
        s.workedMinutes,
        s.nightMinutes,
        s.sundayMinutes,
        s.overtimeFirstMinutes,
        s.overtimeSecondMinutes,
        JSON.stringify(s.absences),
        JSON.stringify(s.balances),
      ]),
    );
  }
  return now;
}

/** The organisation's closed months from `from` to `to` (YYYY-MM), each with how many summaries it froze. */
export async function closedMonthsBetween(
  em: Em,
  tenantId: string,
  from: string,
  to: string,
): Promise<{ month: string; closedAt: Date; closedBy: string | null; employees: number }[]> {
  const rows = await em.execute<{ month: string; created_at: Date; closed_by: string | null; employees: number }[]>(
    `select m.month, m.created_at, m.closed_by, (select count(*)::int from hr_payroll_month_summaries s where s.tenant_id = m.tenant_id and s.month = m.month) as employees from hr_payroll_months m where m.tenant_id = ? and m.month between ? and ? order by m.month`,
    [tenantId, from, to],
  );
  return rows.map((r) => ({
    month: r.month,
    closedAt: new Date(r.created_at),
    closedBy: r.closed_by,
    employees: r.employees,
  }));
}
