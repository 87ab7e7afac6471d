import { newId } from '../../entities/base';
import { HrEmployee } from '../../entities/hr/employee';
import { HrLeaveRequest, HrLeaveType } from '../../entities/hr/leave';
import { HrSchedule } from '../../entities/hr/schedule';
import type { Em } from '../../lib/db';
import type { TenantContext } from '../context';
import { monthlyAccrual, referenceYearOf } from './accrual';
import { employedOn, type Employment } from './employment';
import { halvesOff, slotPartWorked } from './halfDays';
import { ensureDefaultLeaveTypes } from './leaveTypes';
import { addDays, datesBetween, monthBounds, weekdayOf } from '../../lib/calendar';
import { holidayDates } from './publicHolidays';
import { slotMinutes, versionOn } from './schedules';

/** The legal week (35 h): scheduled hours beyond it earn RTT. */
export const LEGAL_WEEKLY_MINUTES = 35 * 60;
/** An RTT day is worth 7 hours (35 h / 5). */
export const RTT_DAY_MINUTES = 7 * 60;

interface Row {
  employeeId: string;
  leaveTypeId: string;
  days: number;
  reason: string;
}

/** Employees working during some day of the month (hired by its end, not gone before its start). */
async function employeesOfMonth(em: Em, first: string, last: string): Promise<({ id: string } & Employment)[]> {
  return em.find(
    HrEmployee,
    { $and: [{ $or: [{ hireDate: null }, { hireDate: { $lte: last } }] }, { $or: [{ endDate: null }, { endDate: { $gte: first } }] }] },
    { fields: ['id', 'hireDate', 'endDate'], orderBy: { id: 'asc' } },
  );
}

/**
 * Credits every live accruing leave type (accrualDaysPerMonth > 0, not archived; paid leave 2.5 ouvrables) to
 * each employee of the month: one `accrual` movement per employee, type and month, at the type's rate when the
 * job runs (earlier movements keep theirs). The last month of a reference year (May) also rounds what the
 * employee earned of the type in that year up to a whole day (monthlyAccrual). Run twice, it credits once.
 * Returns the movements made.
 */
export async function accrueLeave(ctx: TenantContext, period: string): Promise<number> {
  const { first, last } = monthBounds(period);
  await ensureDefaultLeaveTypes(ctx.em, ctx.tenantId);
  const types = await ctx.em.find(HrLeaveType, { accrualDaysPerMonth: { $gt: 0 }, archivedAt: null });
  const employees = await employeesOfMonth(ctx.em, first, last);
  const earned = await earnedInReferenceYear(ctx, period, types.map((t) => t.id));
  const rows = employees.flatMap((e) =>
    types.map((t) => {
      const rate = Number(t.accrualDaysPerMonth);
      const days = monthlyAccrual(rate, period, earned.get(`${e.id}:${t.id}`) ?? 0);
      return { employeeId: e.id, leaveTypeId: t.id, days, reason: days === rate ? `Accrual ${period}` : `Accrual ${period}, the reference year to ${referenceYearOf(period).last} rounded up to a whole day` };
    }),
  );
  return insertMovements(ctx, 'accrual', period, rows);
}

/** What the earlier months of the reference year credited, by `employee:type`; only read for its last month (where it counts). */
async function earnedInReferenceYear(ctx: TenantContext, period: string, typeIds: string[]): Promise<Map<string, number>> {
  const year = referenceYearOf(period);
  if (period !== year.last || !typeIds.length) return new Map();
  const rows = await ctx.em.execute<{ employee_id: string; leave_type_id: string; total: string }[]>(
    `select employee_id, leave_type_id, sum(days) as total from hr_leave_ledger where tenant_id = ? and kind = 'accrual' and period >= ? and period < ? and leave_type_id = any(?::uuid[]) group by employee_id, leave_type_id`,
    [ctx.tenantId, year.first, period, `{${typeIds.join(',')}}`],
  );
  return new Map(rows.map((r) => [`${r.employee_id}:${r.leave_type_id}`, Number(r.total)]));
}

/**
 * Generates the RTT of a month: each ISO week starting in the month whose worked minutes pass the legal 35 h
 * earns (minutes - 35 h) / 7 h days. A week's worked minutes are its scheduled ones (the version in force each
 * day) on the days the employee is at work: none before the hire date or after the last day, none on French
 * public holidays, and none in the halves of days taken by leave granted when the generation runs (a half day
 * removes the slots' part before or after HALF_DAY_BOUNDARY, as availability does): absences earn no RTT.
 * The month's total is one
 * `rtt_generation` movement per employee, credited to the organisation's RTT type (the first by code with
 * rtt set, not archived). Nothing for a month without excess. Run twice, it credits once.
 */
export async function generateRtt(ctx: TenantContext, period: string): Promise<number> {
  const { first, last } = monthBounds(period);
  await ensureDefaultLeaveTypes(ctx.em, ctx.tenantId);
  const type = await ctx.em.findOne(HrLeaveType, { rtt: true, archivedAt: null }, { orderBy: { code: 'asc' } });
  if (!type) return 0;
  const employees = await employeesOfMonth(ctx.em, first, last);
  const schedules = await ctx.em.find(HrSchedule, { employeeId: { $in: employees.map((e) => e.id) } }, { orderBy: { effectiveFrom: 'asc' } });
  const mondays = [...datesBetween(first, last)].filter((d) => weekdayOf(d) === 1);
  const weeksEnd = addDays(mondays.at(-1)!, 6);
  const holidays = holidayDates(mondays[0], weeksEnd);
  const leave = await ctx.em.find(
    HrLeaveRequest,
    { employeeId: { $in: employees.map((e) => e.id) }, status: 'granted', startDate: { $lte: weeksEnd }, endDate: { $gte: mondays[0] } },
    { fields: ['employeeId', 'startDate', 'startHalf', 'endDate', 'endHalf'] },
  );
  const rows: Row[] = [];
  for (const employee of employees) {
    const versions = schedules.filter((s) => s.employeeId === employee.id);
    if (!versions.length) continue;
    const ownLeave = leave.filter((l) => l.employeeId === employee.id);
    let excess = 0;
    for (const monday of mondays) {
      let minutes = 0;
      for (let i = 0; i < 7; i++) {
        const date = addDays(monday, i);
        if (!employedOn(employee, date) || holidays.has(date)) continue;
        const weekday = i + 1;
        const off = halvesOff(ownLeave, date);
        for (const slot of versionOn(versions, date)?.slots ?? []) {
          if (slot.weekday !== weekday) continue;
          const part = slotPartWorked(slot, off);
          if (part) minutes += slotMinutes(part);
        }
      }
      excess += Math.max(0, minutes - LEGAL_WEEKLY_MINUTES);
    }
    const days = Math.round((excess / RTT_DAY_MINUTES) * 100) / 100;
    if (days > 0) rows.push({ employeeId: employee.id, leaveTypeId: type.id, days, reason: `RTT ${period}: ${Math.round(excess / 6) / 10} h above 35 h weeks` });
  }
  return insertMovements(ctx, 'rtt_generation', period, rows);
}

/** Inserts generated movements, skipping those of the period already there (the partial unique index). */
async function insertMovements(ctx: TenantContext, kind: 'accrual' | 'rtt_generation', period: string, rows: Row[]): Promise<number> {
  let inserted = 0;
  const now = new Date();
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    const values = chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
    const params = chunk.flatMap((r) => [newId(), ctx.tenantId, now, r.employeeId, r.leaveTypeId, kind, r.days, period, r.reason]);
    const result = await ctx.em.execute<{ id: string }[]>(
      `insert into hr_leave_ledger (id, tenant_id, created_at, employee_id, leave_type_id, kind, days, period, reason) values ${values} on conflict do nothing returning id`,
      params,
    );
    inserted += result.length;
  }
  return inserted;
}
