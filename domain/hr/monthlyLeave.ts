import type { HrSchedule } from '../../entities/hr/schedule';
import { addDays, datesBetween, monthBounds, weekdayOf } from '../../lib/calendar';
import type { LeaveCounting } from '../../entities/hr/leave';
import { MONTHLY_PAID_LEAVE } from './accrual';
import { employedOn, type Employment } from './employment';
import { halvesOff, slotPartWorked, type HalfDaySpan } from './halfDays';
import { monthAcquisition, spanDaysIn, type Acquisition, type DaySpan } from './paidLeave';
import { holidayDates } from './publicHolidays';
import { slotMinutes, versionOn } from './schedules';
import type { GeneratedMovement } from './store/leave';

/** The rules of the monthly leave jobs (pure): what accrual and RTT generation credit for a month. */

/** The legal week (35 h): scheduled hours beyond it earn RTT. */
export const LEGAL_WEEKLY_MINUTES = 35 * 60;
/** An RTT day is worth 7 hours (35 h / 5). */
export const RTT_DAY_MINUTES = 7 * 60;

/** What an employee earned of a type in the reference period before the month: in all, and of it on sick leave. */
export interface Earned {
  total: number;
  sick: number;
}

export interface AccrualInput {
  period: string;
  employees: (Employment & { id: string })[];
  types: { id: string; accrualDaysPerMonth: number | string; counting: LeaveCounting }[];
  /** Granted non-professional sick leave (the `sick` type) touching the month. */
  sickLeave: (DaySpan & { employeeId: string })[];
  /** By `employee:type`. */
  earned: ReadonlyMap<string, Earned>;
  startMonth?: number;
}

/**
 * The accrual of a month (monthAcquisition): per employee and accruing type, one `accrual` movement for the days
 * worked (the rate, pro rata of a month partly employed, the last month of the reference period rounding it up
 * to a whole day) and, for paid leave (a type accruing at least the law's monthly rate of its counting), one
 * `sick_accrual` movement for days of non-professional sick leave (2 ouvrables a month, 24 a period). Each names
 * its rule. Other accruing types take no account of sick leave.
 */
export function accrualMovements(input: AccrualInput): { accrual: GeneratedMovement[]; sick: GeneratedMovement[] } {
  const accrual: GeneratedMovement[] = [];
  const sick: GeneratedMovement[] = [];
  for (const employee of input.employees) {
    const spans = input.sickLeave.filter((l) => l.employeeId === employee.id);
    const sickDays = spans.length ? spanDaysIn(input.period, spans, employee) : 0;
    for (const t of input.types) {
      const rate = Number(t.accrualDaysPerMonth);
      const paidLeave = rate >= MONTHLY_PAID_LEAVE[t.counting];
      const earned = input.earned.get(`${employee.id}:${t.id}`) ?? { total: 0, sick: 0 };
      const month = monthAcquisition({
        period: input.period,
        counting: t.counting,
        rate,
        employment: employee,
        sickDays: paidLeave ? sickDays : 0,
        earnedBefore: earned.total,
        sickEarnedBefore: earned.sick,
        startMonth: input.startMonth,
      });
      const movement = (a: Acquisition) => ({ employeeId: employee.id, leaveTypeId: t.id, ...a });
      if (month.worked) accrual.push(movement(month.worked));
      if (month.sick) sick.push(movement(month.sick));
    }
  }
  return { accrual, sick };
}

/** The weeks a month's RTT counts: the ISO weeks starting in it (Mondays), from the first Monday to the last Sunday. */
export interface RttWeeks {
  mondays: string[];
  first: string;
  last: string;
  /** The public holidays of those days. */
  holidays: ReadonlySet<string>;
}

export function rttWeeksOf(period: string): RttWeeks {
  const { first, last } = monthBounds(period);
  const mondays = [...datesBetween(first, last)].filter((d) => weekdayOf(d) === 1);
  const weeksEnd = addDays(mondays.at(-1)!, 6);
  return { mondays, first: mondays[0], last: weeksEnd, holidays: holidayDates(mondays[0], weeksEnd) };
}

/**
 * The minutes an employee works above the legal 35 h in each of the weeks, summed. A week's worked minutes are
 * its scheduled ones (the version in force each day, `versions` oldest first) on the days the employee is at
 * work: none outside the employment, none on public holidays, and none in the halves of days `leave` takes (a
 * half day removes the slots' part before or after HALF_DAY_BOUNDARY, as availability does).
 */
export function excessMinutes(
  weeks: RttWeeks,
  employment: Employment,
  versions: Pick<HrSchedule, 'effectiveFrom' | 'slots'>[],
  leave: HalfDaySpan[],
): number {
  let excess = 0;
  for (const monday of weeks.mondays) {
    let minutes = 0;
    for (let i = 0; i < 7; i++) {
      const date = addDays(monday, i);
      if (!employedOn(employment, date) || weeks.holidays.has(date)) continue;
      const weekday = i + 1;
      const off = halvesOff(leave, date);
      for (const slot of versionOn(versions, date)?.slots ?? []) {
        if (slot.weekday !== weekday) continue;
        const part = slotPartWorked(slot, off);
        if (part) minutes += slotMinutes(part);
      }
    }
    excess += Math.max(0, minutes - LEGAL_WEEKLY_MINUTES);
  }
  return excess;
}

/** The RTT days excess minutes earn: (minutes above 35 h) / 7 h, to the hundredth. */
export const rttDaysOf = (excess: number): number => Math.round((excess / RTT_DAY_MINUTES) * 100) / 100;

/** The reason written on an RTT movement: the excess in hours, to the tenth. */
export const rttReason = (period: string, excess: number): string =>
  `RTT ${period}: ${Math.round(excess / 6) / 10} h above 35 h weeks`;
