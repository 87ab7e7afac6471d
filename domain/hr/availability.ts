import { DateTime } from 'luxon';
import { HrLeaveRequest, type Half } from '../../entities/hr/leave';
import { invalidField } from '../../lib/errors';
import type { TenantContext } from '../context';
import { findEmployee } from './lookup';
import { holidayDates } from './publicHolidays';
import { scheduleVersions, versionOn } from './schedules';
import { datesBetween, localInstant, weekdayOf } from './zones';

export interface Interval {
  start: Date;
  end: Date;
}

export interface Availability {
  /** Working intervals in UTC, sorted, non-overlapping, clipped to the range asked. */
  intervals: Interval[];
  /** Zone of the schedule in force at the start of the range (the employee's when none). */
  timeZone: string;
}

/** Local time splitting a day into its two halves for half-day leave: the morning ends, the afternoon starts here. */
export const HALF_DAY_BOUNDARY = '13:00';

/** Longest range one availability read may cover. */
export const MAX_AVAILABILITY_DAYS = 366;

/**
 * When an employee works between `from` and `to`: their weekly schedule (the version in force each local day,
 * in its zone) minus French public holidays, minus granted leave (a half day removes the morning, before
 * HALF_DAY_BOUNDARY, or the afternoon), and nothing before the hire date or after the end date. Pending leave
 * still counts as available. Read by the appointments module; 404 for an unknown employee.
 */
export async function employeeAvailability(ctx: TenantContext, employeeId: string, range: { from: Date; to: Date }): Promise<Availability> {
  if (!(range.from < range.to)) throw invalidField('to', 'must be after from');
  if (range.to.getTime() - range.from.getTime() > MAX_AVAILABILITY_DAYS * 86_400_000) throw invalidField('to', `the range may cover at most ${MAX_AVAILABILITY_DAYS} days`);
  const employee = await findEmployee(ctx.em, employeeId);
  const versions = await scheduleVersions(ctx.em, employeeId);
  // Local dates of any zone that can touch the range: one day of margin on each side.
  const firstDate = DateTime.fromJSDate(range.from, { zone: 'utc' }).minus({ days: 1 }).toISODate()!;
  const lastDate = DateTime.fromJSDate(range.to, { zone: 'utc' }).plus({ days: 1 }).toISODate()!;
  const leave = await ctx.em.find(HrLeaveRequest, { employeeId, status: 'granted', startDate: { $lte: lastDate }, endDate: { $gte: firstDate } });
  const holidays = holidayDates(firstDate, lastDate);
  const intervals: Interval[] = [];
  for (const date of datesBetween(firstDate, lastDate)) {
    if (holidays.has(date)) continue;
    if ((employee.hireDate && date < employee.hireDate) || (employee.endDate && date > employee.endDate)) continue;
    const version = versionOn(versions, date);
    if (!version) continue;
    const weekday = weekdayOf(date);
    const off = halvesOff(leave, date);
    for (const slot of version.slots) {
      if (slot.weekday !== weekday) continue;
      let { start, end } = slot;
      if (off.has('morning')) start = start > HALF_DAY_BOUNDARY ? start : HALF_DAY_BOUNDARY;
      if (off.has('afternoon')) end = end < HALF_DAY_BOUNDARY ? end : HALF_DAY_BOUNDARY;
      if (start >= end) continue;
      const interval = { start: localInstant(date, start, version.timeZone), end: localInstant(date, end, version.timeZone) };
      if (interval.start < range.from) interval.start = range.from;
      if (interval.end > range.to) interval.end = range.to;
      if (interval.start < interval.end) intervals.push(interval);
    }
  }
  const startDate = DateTime.fromJSDate(range.from, { zone: versionOn(versions, firstDate)?.timeZone ?? employee.timeZone }).toISODate()!;
  return { intervals: merge(intervals), timeZone: versionOn(versions, startDate)?.timeZone ?? employee.timeZone };
}

/** The halves of a local date that granted leave takes. */
function halvesOff(leave: HrLeaveRequest[], date: string): Set<Half> {
  const off = new Set<Half>();
  for (const l of leave) {
    if (date < l.startDate || date > l.endDate) continue;
    if (!(date === l.startDate && l.startHalf === 'afternoon')) off.add('morning');
    if (!(date === l.endDate && l.endHalf === 'morning')) off.add('afternoon');
  }
  return off;
}

/** Sorts intervals and joins those that touch or overlap. */
export function merge(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.start.getTime() - b.start.getTime());
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out.at(-1);
    if (last && i.start <= last.end) {
      if (i.end > last.end) last.end = i.end;
    } else out.push({ ...i });
  }
  return out;
}
