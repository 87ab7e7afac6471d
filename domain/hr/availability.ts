import { DateTime } from 'luxon';
import { invalidField, notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { employedOn } from './employment';
import { halvesOff, slotPartWorked } from './halfDays';
import { checkInstantRange, dateOf, datesBetween, DAY_MS, localInstant, weekdayOf } from '../../lib/calendar';
import { holidayDates } from './publicHolidays';
import { versionOn } from './schedules';
import { employmentsIn } from './store/employees';
import { grantedLeaveOf } from './store/leave';
import { versionsOfEmployees } from './store/schedules';

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

/** Longest range one availability read may cover. */
export const MAX_AVAILABILITY_DAYS = 366;

/**
 * When an employee works between `from` and `to`: their weekly schedule (the version in force each local day,
 * in its zone) minus French public holidays, minus granted leave (a half day removes the morning, before
 * HALF_DAY_BOUNDARY, or the afternoon), and nothing before the hire date or after the end date. Pending leave
 * still counts as available. 404 for an unknown employee (the appointments module reads a team: employeesAvailability).
 */
export async function employeeAvailability(
  ctx: TenantContext,
  employeeId: string,
  range: { from: Date; to: Date },
): Promise<Availability> {
  const found = (await employeesAvailability(ctx, [employeeId], range)).get(employeeId);
  if (!found) throw notFound('Employee');
  return found;
}

/**
 * employeeAvailability of several employees (a team's, for appointments) in three statements whatever their
 * number; unknown ids are left out. Local dates and instants are computed once for the whole team (a luxon
 * zone conversion costs tens of microseconds; a month of 20 people is over a thousand of them).
 */
export async function employeesAvailability(
  ctx: TenantContext,
  employeeIds: string[],
  range: { from: Date; to: Date },
): Promise<Map<string, Availability>> {
  if (!(range.from < range.to)) throw invalidField('to', 'must be after from');
  if (range.to.getTime() - range.from.getTime() > MAX_AVAILABILITY_DAYS * DAY_MS)
    throw invalidField('to', `the range may cover at most ${MAX_AVAILABILITY_DAYS} days`);
  checkInstantRange(range);
  const out = new Map<string, Availability>();
  const ids = [...new Set(employeeIds)];
  if (!ids.length) return out;
  // Local dates of any zone that can touch the range: one day of margin on each side.
  const firstDate = dateOf(Math.floor(range.from.getTime() / DAY_MS) - 1);
  const lastDate = dateOf(Math.floor(range.to.getTime() / DAY_MS) + 1);
  // Lean reads (availability only reads, for the HR route and every storefront slot search of a team linked to HR).
  const [employees, versions, leave] = await Promise.all([
    employmentsIn.all(ctx, ids),
    versionsOfEmployees.all(ctx, ids),
    grantedLeaveOf.all(ctx, ids, lastDate, firstDate),
  ]);
  const holidays = holidayDates(firstDate, lastDate);
  const dates = [...datesBetween(firstDate, lastDate)]
    .filter((date) => !holidays.has(date))
    .map((date) => ({ date, weekday: weekdayOf(date) }));
  const instants = new Map<string, Date>();
  const instant = (date: string, time: string, zone: string) => {
    const key = `${zone} ${date}T${time}`;
    let at = instants.get(key);
    if (!at) instants.set(key, (at = localInstant(date, time, zone)));
    return at;
  };
  for (const employee of employees) {
    const own = versions.filter((v) => v.employeeId === employee.id);
    const ownLeave = leave.filter((l) => l.employeeId === employee.id);
    const intervals: Interval[] = [];
    for (const { date, weekday } of dates) {
      if (!employedOn(employee, date)) continue;
      const version = versionOn(own, date);
      if (!version) continue;
      const off = halvesOff(ownLeave, date);
      for (const slot of version.slots) {
        if (slot.weekday !== weekday) continue;
        const part = slotPartWorked(slot, off);
        if (!part) continue;
        const interval = {
          start: instant(date, part.start, version.timeZone),
          end: instant(date, part.end, version.timeZone),
        };
        if (interval.start < range.from) interval.start = range.from;
        if (interval.end > range.to) interval.end = range.to;
        if (interval.start < interval.end) intervals.push(interval);
      }
    }
    const startDate = DateTime.fromJSDate(range.from, {
      zone: versionOn(own, firstDate)?.timeZone ?? employee.timeZone,
    }).toISODate()!;
    out.set(employee.id, {
      intervals: merge(intervals),
      timeZone: versionOn(own, startDate)?.timeZone ?? employee.timeZone,
    });
  }
  return out;
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
