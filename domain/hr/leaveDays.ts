import type { Half } from '../../entities/hr/leave';
import type { HrSchedule } from '../../entities/hr/schedule';
import { employedOn, type Employment } from './employment';
import { holidayDates } from './publicHolidays';
import { versionOn } from './schedules';
import { datesBetween, weekdayOf } from './zones';

export interface LeaveSpan {
  startDate: string;
  startHalf: Half;
  endDate: string;
  endHalf: Half;
}

/**
 * Working days a leave span takes: each local date the employee works (a slot that week day in the schedule in
 * force, Monday to Friday without a schedule) and that is not a public holiday counts 1, or 0.5 for a half
 * (the span starting in the afternoon or ending at noon). Dates before the hire date or after the last day
 * count 0: the employee does not work them.
 */
export function leaveDays(span: LeaveSpan, versions: HrSchedule[], employment: Employment = {}): number {
  const holidays = holidayDates(span.startDate, span.endDate);
  let days = 0;
  for (const date of datesBetween(span.startDate, span.endDate)) {
    if (holidays.has(date) || !employedOn(employment, date)) continue;
    const weekday = weekdayOf(date);
    const version = versionOn(versions, date);
    const works = version ? version.slots.some((s) => s.weekday === weekday) : weekday <= 5;
    if (!works) continue;
    let share = 1;
    if (date === span.startDate && span.startHalf === 'afternoon') share -= 0.5;
    if (date === span.endDate && span.endHalf === 'morning') share -= 0.5;
    days += share;
  }
  return days;
}
