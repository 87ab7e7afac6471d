import type { LeaveCounting } from '../../entities/hr/leave';
import type { HrSchedule } from '../../entities/hr/schedule';
import { addDays, datesBetween, monthBounds, weekdayOf } from '../../lib/calendar';
import { employedOn, type Employment } from './employment';
import { halvesOff, slotPartWorked, type HalfDaySpan } from './halfDays';
import { leaveDays } from './leaveDays';
import { RTT_DAY_MINUTES } from './monthlyLeave';
import { holidayDates } from './publicHolidays';
import { slotMinutes, versionOn } from './schedules';
import { DEFAULT_OVERTIME, type DayTime, type OvertimeRates } from './workedTime';

/**
 * The month summary payroll reads (pure): per employee and calendar month, the hours worked, night and Sunday
 * hours and overtime at each rate from the ISO weeks the month overlaps; the absences of each leave type in days
 * (its counting) and hours (the schedule's); the leave balances at the month's end, from the ledger.
 *
 * - A week inside the month gives its closed counter as it is (a later correction does not change it).
 * - A week straddling two months is split by day: each day's minutes go to the month of the day, and the week's
 *   overtime to the days where the running total of the week (from Monday) passes the weekly minutes (35 h), the
 *   first tier at the first rate and beyond at the second. The two months' shares add up to the week.
 */

/** The closed counter of a week (hr_week_counters). */
export interface WeekCounterTotals {
  minutes: number;
  nightMinutes: number;
  sundayMinutes: number;
  overtimeFirstMinutes: number;
  overtimeSecondMinutes: number;
}

export interface PayrollWeek {
  /** Monday of the ISO week (local). */
  monday: string;
  /** Its closed counter; null when the employee has none (the week's days are then counted). */
  counter: WeekCounterTotals | null;
  /** The worked minutes of the week's local days (dailyTime, corrections applied), any order. */
  days: DayTime[];
}

export interface PayrollLeaveType {
  id: string;
  code: string;
  counting: LeaveCounting;
  tracksBalance: boolean;
}

/** A ledger movement (or a sum of movements of one type and period). */
export interface PayrollMovement {
  leaveTypeId: string;
  days: number;
  /** The month a generated movement credits (accrual, expiry ...); null for the others. */
  period: string | null;
  createdAt: Date;
}

export interface PayrollMonthInput {
  /** YYYY-MM. */
  month: string;
  employment: Employment;
  weeks: PayrollWeek[];
  /** Granted leave of the employee touching the month. */
  leave: (HalfDaySpan & { leaveTypeId: string })[];
  types: PayrollLeaveType[];
  /** Schedule versions, oldest first. */
  versions: Pick<HrSchedule, 'effectiveFrom' | 'slots'>[];
  movements: PayrollMovement[];
  /** The first instant after the month in the employee's zone: movements without a period count when made before it. */
  monthEnd: Date;
  rates?: OvertimeRates;
}

export interface PayrollAbsence {
  leaveTypeId: string;
  code: string;
  /** Days in the type's counting (halves count 0.5). */
  days: number;
  /** Minutes the schedule planned on those halves. */
  minutes: number;
}

export interface PayrollBalance {
  leaveTypeId: string;
  code: string;
  days: number;
}

export interface PayrollMonthSummary {
  workedMinutes: number;
  nightMinutes: number;
  sundayMinutes: number;
  overtimeFirstMinutes: number;
  overtimeSecondMinutes: number;
  absences: PayrollAbsence[];
  balances: PayrollBalance[];
}

type TimeTotals = Omit<PayrollMonthSummary, 'absences' | 'balances'>;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The share of a week falling on days of `first`..`last`, split by day (overtime where the week's total passes it). */
export function weekShare(days: DayTime[], first: string, last: string, rates: OvertimeRates = DEFAULT_OVERTIME) {
  const share: TimeTotals = {
    workedMinutes: 0,
    nightMinutes: 0,
    sundayMinutes: 0,
    overtimeFirstMinutes: 0,
    overtimeSecondMinutes: 0,
  };
  const tierEnd = rates.weeklyMinutes + rates.firstTierMinutes;
  const overlap = (a: number, b: number, lo: number, hi: number) => Math.max(0, Math.min(b, hi) - Math.max(a, lo));
  let total = 0;
  for (const d of [...days].sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0))) {
    const before = total;
    total += d.minutes;
    if (d.date < first || d.date > last) continue;
    share.workedMinutes += d.minutes;
    share.nightMinutes += d.nightMinutes;
    share.sundayMinutes += d.sundayMinutes;
    share.overtimeFirstMinutes += overlap(before, total, rates.weeklyMinutes, tierEnd);
    share.overtimeSecondMinutes += overlap(before, total, tierEnd, Infinity);
  }
  return share;
}

/** The time of the month from its weeks: a week inside the month is its counter, one straddling it is split by day. */
export function monthTime(month: string, weeks: PayrollWeek[], rates: OvertimeRates = DEFAULT_OVERTIME): TimeTotals {
  const { first, last } = monthBounds(month);
  const totals: TimeTotals = {
    workedMinutes: 0,
    nightMinutes: 0,
    sundayMinutes: 0,
    overtimeFirstMinutes: 0,
    overtimeSecondMinutes: 0,
  };
  for (const week of weeks) {
    const sunday = addDays(week.monday, 6);
    if (sunday < first || week.monday > last) continue;
    const inside = week.monday >= first && sunday <= last;
    const part: TimeTotals =
      inside && week.counter
        ? {
            workedMinutes: week.counter.minutes,
            nightMinutes: week.counter.nightMinutes,
            sundayMinutes: week.counter.sundayMinutes,
            overtimeFirstMinutes: week.counter.overtimeFirstMinutes,
            overtimeSecondMinutes: week.counter.overtimeSecondMinutes,
          }
        : weekShare(
            week.days.filter((d) => d.date >= week.monday && d.date <= sunday),
            first,
            last,
            rates,
          );
    for (const key of Object.keys(totals) as (keyof TimeTotals)[]) totals[key] += part[key];
  }
  return totals;
}

/** A span of leave cut to `first`..`last` (whole days at the cut ends); null when it does not touch them. */
export function clipSpan(span: HalfDaySpan, first: string, last: string): HalfDaySpan | null {
  if (span.endDate < first || span.startDate > last) return null;
  return {
    startDate: span.startDate < first ? first : span.startDate,
    startHalf: span.startDate < first ? 'morning' : span.startHalf,
    endDate: span.endDate > last ? last : span.endDate,
    endHalf: span.endDate > last ? 'afternoon' : span.endHalf,
  };
}

/**
 * The minutes the schedule plans on the halves a span takes (the version in force each day; without one, Monday
 * to Friday 7 h, 3.5 a half), public holidays and days outside the employment excepted.
 */
export function absenceMinutes(
  span: HalfDaySpan,
  versions: Pick<HrSchedule, 'effectiveFrom' | 'slots'>[],
  employment: Employment,
): number {
  const holidays = holidayDates(span.startDate, span.endDate);
  let minutes = 0;
  for (const date of datesBetween(span.startDate, span.endDate)) {
    if (holidays.has(date) || !employedOn(employment, date)) continue;
    const off = halvesOff([span], date);
    const weekday = weekdayOf(date);
    const version = versionOn(versions, date);
    if (!version) {
      if (weekday <= 5) minutes += (off.size * RTT_DAY_MINUTES) / 2;
      continue;
    }
    for (const slot of version.slots.filter((s) => s.weekday === weekday)) {
      const left = slotPartWorked(slot, off);
      minutes += slotMinutes(slot) - (left ? slotMinutes(left) : 0);
    }
  }
  return minutes;
}

/** The month summary of one employee (see the top of this file). */
export function payrollMonth(input: PayrollMonthInput): PayrollMonthSummary {
  const { first, last } = monthBounds(input.month);
  const time = monthTime(input.month, input.weeks, input.rates);

  const absences = new Map<string, PayrollAbsence>();
  for (const l of input.leave) {
    const type = input.types.find((t) => t.id === l.leaveTypeId);
    const span = clipSpan(l, first, last);
    if (!type || !span) continue;
    const entry =
      absences.get(type.id) ??
      absences.set(type.id, { leaveTypeId: type.id, code: type.code, days: 0, minutes: 0 }).get(type.id)!;
    entry.days += leaveDays(span, type.counting, input.versions, input.employment);
    entry.minutes += absenceMinutes(span, input.versions, input.employment);
  }

  const counted = (m: PayrollMovement) =>
    m.period !== null ? m.period <= input.month : m.createdAt.getTime() < input.monthEnd.getTime();
  const balances: PayrollBalance[] = [];
  for (const type of input.types) {
    const moves = input.movements.filter((m) => m.leaveTypeId === type.id);
    if (!type.tracksBalance && !moves.length) continue;
    const days = moves.filter(counted).reduce((sum, m) => sum + m.days, 0);
    balances.push({ leaveTypeId: type.id, code: type.code, days: round2(days) });
  }

  const byCode = <T extends { code: string }>(a: T, b: T) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
  return {
    ...time,
    absences: [...absences.values()].map((a) => ({ ...a, days: round2(a.days) })).sort(byCode),
    balances: balances.sort(byCode),
  };
}
