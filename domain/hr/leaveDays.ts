import type { Half, LeaveCounting } from '../../entities/hr/leave';
import type { HrSchedule } from '../../entities/hr/schedule';
import { employedOn, type Employment } from './employment';
import { halvesOff, halvesWorked, type HalfDaySpan } from './halfDays';
import { holidayDates } from './publicHolidays';
import { versionOn } from './schedules';
import { addDays, datesBetween, weekdayOf } from '../../lib/calendar';

export type LeaveSpan = HalfDaySpan;

/** How far after a span the return to work is looked for: a week, since schedules repeat weekly. */
const RETURN_LOOKAHEAD_DAYS = 7;

interface HalfDay {
  date: string;
  half: Half;
  /** The employee works it: a slot of the schedule in force, within the employment, not a public holiday. */
  worked: boolean;
  /** A jour ouvrable (Monday to Saturday, not a public holiday) within the employment. */
  ouvrable: boolean;
}

/**
 * Days a leave span takes, by half day (each counts 0.5), in the leave type's counting:
 *
 * - `ouvres`: each half of the span the employee works. A half is worked when a slot of that week day in the
 *   schedule in force covers part of it (morning before HALF_DAY_BOUNDARY, afternoon after; both halves Monday to
 *   Friday without a schedule), as availability splits days. So a full day asked on a day with only a morning
 *   slot counts 0.5, and an afternoon asked on it 0.
 * - `ouvrables` (the legal counting of congés payés): every half of a jour ouvrable (Monday to Saturday) from
 *   the first worked half the span takes up to the return, the first worked half after the span (looked for a
 *   week ahead; the end of the span when there is none). So a week off Monday to Friday costs 6 days (its
 *   Saturday falls before the Monday return), a Friday 2, a Friday morning 0.5; days off at the start of a span
 *   (a Saturday before a Monday) cost nothing, and a part-time employee spends as a full-time one.
 *
 * Either way public holidays, Sundays in `ouvrables`, and dates before the hire date or after the last day count
 * 0. A span taking no worked half takes nothing.
 */
export function leaveDays(
  span: LeaveSpan,
  counting: LeaveCounting,
  versions: Pick<HrSchedule, 'effectiveFrom' | 'slots'>[],
  employment: Employment = {},
): number {
  const lookahead = addDays(span.endDate, RETURN_LOOKAHEAD_DAYS);
  const holidays = holidayDates(span.startDate, lookahead);
  const halfDay = (date: string, half: Half): HalfDay => {
    const weekday = weekdayOf(date);
    const open = !holidays.has(date) && employedOn(employment, date);
    const version = versionOn(versions, date);
    const worked = version ? halvesWorked(version.slots.filter((s) => s.weekday === weekday)).has(half) : weekday <= 5;
    return { date, half, worked: open && worked, ouvrable: open && weekday <= 6 };
  };
  const inSpan: HalfDay[] = [];
  for (const date of datesBetween(span.startDate, span.endDate))
    for (const half of halvesOff([span], date)) inSpan.push(halfDay(date, half));
  if (counting === 'ouvres') return inSpan.filter((h) => h.worked).length / 2;

  const first = inSpan.findIndex((h) => h.worked);
  if (first < 0) return 0;
  const halves = inSpan.slice(first);
  const after: HalfDay[] = [];
  if (span.endHalf === 'morning') after.push(halfDay(span.endDate, 'afternoon'));
  for (const date of datesBetween(addDays(span.endDate, 1), lookahead))
    after.push(halfDay(date, 'morning'), halfDay(date, 'afternoon'));
  const back = after.findIndex((h) => h.worked);
  if (back >= 0) halves.push(...after.slice(0, back));
  return halves.filter((h) => h.ouvrable).length / 2;
}
