import type { HrSchedule } from '../../entities/hr/schedule';
import { employedOn, type Employment } from './employment';
import { halvesOff, halvesWorked, type HalfDaySpan } from './halfDays';
import { holidayDates } from './publicHolidays';
import { versionOn } from './schedules';
import { datesBetween, weekdayOf } from './zones';

export type LeaveSpan = HalfDaySpan;

/**
 * Working days a leave span takes, by half day: each half (morning before HALF_DAY_BOUNDARY, afternoon after it)
 * of a local date that the span covers (all of them, but the morning of a span starting in the afternoon and the
 * afternoon of one ending at noon) and the employee works counts 0.5. A half is worked when a slot of that week
 * day in the schedule in force covers part of it (both halves Monday to Friday without a schedule), as
 * availability splits days. Public holidays and dates before the hire date or after the last day count 0: the
 * employee does not work them. So a full day asked on a day with only a morning slot counts 0.5, and an
 * afternoon asked on it 0.
 */
export function leaveDays(span: LeaveSpan, versions: HrSchedule[], employment: Employment = {}): number {
  const holidays = holidayDates(span.startDate, span.endDate);
  let days = 0;
  for (const date of datesBetween(span.startDate, span.endDate)) {
    if (holidays.has(date) || !employedOn(employment, date)) continue;
    const weekday = weekdayOf(date);
    const version = versionOn(versions, date);
    const worked = version ? halvesWorked(version.slots.filter((s) => s.weekday === weekday)) : new Set(weekday <= 5 ? (['morning', 'afternoon'] as const) : []);
    for (const half of halvesOff([span], date)) if (worked.has(half)) days += 0.5;
  }
  return days;
}
