import { addDays, DAY_MS } from '../../lib/calendar';
import type { TenantContext } from '../context';
import { holidayDates } from './publicHolidays';
import { employeesWorkingBetween } from './store/employees';
import { insertWeekCounters } from './store/counters';
import { scheduleVersionsOfEmployees } from './store/schedules';
import { loadPunches, workIntervals } from './timeline';
import { dailyTime, scheduledMinutesOfWeek, weekTime } from './workedTime';

/**
 * Closes an ISO week (its Monday) for every employee of the week: one immutable counter each (weekTime), from the
 * effective punches (corrections applied) of the week's local days in the employee's time zone, against the
 * schedule version of each day (public holidays excepted). Overtime at the rates of DEFAULT_OVERTIME. Run twice,
 * it closes once (a week already closed keeps its counter: a later correction shows in the clock views, not in
 * a closed counter). Returns the counters made.
 */
export async function closeWeek(ctx: TenantContext, monday: string): Promise<number> {
  const sunday = addDays(monday, 6);
  const employees = await employeesWorkingBetween(ctx.em, monday, sunday);
  if (!employees.length) return 0;
  const ids = employees.map((e) => e.id);
  // Every zone's local week lies within a day either side of the UTC one.
  const from = new Date(Date.parse(`${monday}T00:00:00Z`) - DAY_MS);
  const to = new Date(Date.parse(`${sunday}T00:00:00Z`) + 2 * DAY_MS);
  const punches = await loadPunches(ctx.em, ids, from, to);
  const versions = await scheduleVersionsOfEmployees(ctx.em, ids);
  const holidays = holidayDates(monday, sunday);
  const rows = employees.map((e) => {
    const { intervals } = workIntervals(punches.get(e.id) ?? []);
    const days = dailyTime(intervals, e.timeZone).filter((d) => d.date >= monday && d.date <= sunday);
    const scheduled = scheduledMinutesOfWeek(
      monday,
      e,
      versions.filter((v) => v.employeeId === e.id),
      holidays,
    );
    const inWeek = intervals.filter((i) =>
      dailyTime([i], e.timeZone).some((d) => d.date >= monday && d.date <= sunday),
    );
    return { employeeId: e.id, corrected: inWeek.some((i) => i.corrected), ...weekTime(monday, days, scheduled) };
  });
  return insertWeekCounters(ctx.em, ctx.tenantId, rows);
}
