import type { HrSchedule } from '../../entities/hr/schedule';
import { addDays, datesBetween, monthBounds, weekdayOf } from '../../lib/calendar';
import { monthlyAccrual, referenceYearOf } from './accrual';
import { employedOn, type Employment } from './employment';
import { halvesOff, slotPartWorked, type HalfDaySpan } from './halfDays';
import { holidayDates } from './publicHolidays';
import { slotMinutes, versionOn } from './schedules';
import type { GeneratedMovement } from './store/leave';

/** The rules of the monthly leave jobs (pure): what accrual and RTT generation credit for a month. */

/** The legal week (35 h): scheduled hours beyond it earn RTT. */
export const LEGAL_WEEKLY_MINUTES = 35 * 60;
/** An RTT day is worth 7 hours (35 h / 5). */
export const RTT_DAY_MINUTES = 7 * 60;

/**
 * The accrual of a month: one movement per employee and accruing type at the type's current rate; the last month
 * of a reference year (May) also rounds what the employee earned of the type in that year up to a whole day
 * (monthlyAccrual). `earned` is what the earlier months of the reference year credited, by `employee:type`.
 */
export function accrualMovements(
  period: string,
  employeeIds: string[],
  types: { id: string; accrualDaysPerMonth: number | string }[],
  earned: ReadonlyMap<string, number>,
): GeneratedMovement[] {
  return employeeIds.flatMap((employeeId) =>
    types.map((t) => {
      const rate = Number(t.accrualDaysPerMonth);
      const days = monthlyAccrual(rate, period, earned.get(`${employeeId}:${t.id}`) ?? 0);
      return {
        employeeId,
        leaveTypeId: t.id,
        days,
        reason:
          days === rate
            ? `Accrual ${period}`
            : `Accrual ${period}, the reference year to ${referenceYearOf(period).last} rounded up to a whole day`,
      };
    }),
  );
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
