import { addDays, DAY_MS } from '../../lib/calendar';
import type { TenantContext } from '../context';
import { daysWorked, forfaitYear } from './forfaitDays';
import { holidayDates } from './publicHolidays';
import { raiseAlerts } from './raiseAlerts';
import { hrSettingsOf, overtimeRatesOf, type HrSettingsValues } from './settings';
import type { NewAlert } from './store/compliance';
import { contingentUsed, insertWeekCounters } from './store/counters';
import { employeesWorkingBetween } from './store/employees';
import { scheduleVersionsOfEmployees } from './store/schedules';
import { loadPunches, workIntervals } from './timeline';
import { contingentAlerts, dailyTime, NO_OVERTIME, scheduledMinutesOfWeek, weekTime } from './workedTime';

type WeekEmployee = Awaited<ReturnType<typeof employeesWorkingBetween>>[number];

/**
 * Closes an ISO week (its Monday) for every employee of the week: one immutable counter each (weekTime), from the
 * effective punches (corrections applied) of the week's local days in the employee's time zone, against the
 * schedule version of each day (public holidays excepted). Overtime at the rates of the organisation's agreement
 * (HR settings; none for employees au forfait jours), compensated by replacement rest when the settings say so.
 * Then the alerts the new counters raise: the annual contingent passed (80, 90, 100 %) and a forfait exceeded.
 * Run twice, it closes once (a week already closed keeps its counter: a later correction shows in the clock
 * views, not in a closed counter). Returns the counters made.
 */
export async function closeWeek(ctx: TenantContext, monday: string): Promise<number> {
  const sunday = addDays(monday, 6);
  const employees = await employeesWorkingBetween(ctx.em, monday, sunday);
  if (!employees.length) return 0;
  const settings = await hrSettingsOf(ctx);
  const rates = overtimeRatesOf(settings);
  const ids = employees.map((e) => e.id);
  // Every zone's local week lies within a day either side of the UTC one.
  const from = new Date(Date.parse(`${monday}T00:00:00Z`) - DAY_MS);
  const to = new Date(Date.parse(`${sunday}T00:00:00Z`) + 2 * DAY_MS);
  const punches = await loadPunches(ctx.em, ids, from, to);
  const versions = await scheduleVersionsOfEmployees(ctx.em, ids);
  const holidays = holidayDates(monday, sunday);
  const rows = employees.map((e) => {
    const forfait = e.workTimeMode === 'forfait_days';
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
    const week = weekTime(monday, days, scheduled, forfait ? NO_OVERTIME : rates, !forfait && settings.replacementRest);
    return { employeeId: e.id, corrected: inWeek.some((i) => i.corrected), ...week };
  });
  const closed = new Set(await insertWeekCounters(ctx.em, ctx.tenantId, rows));
  const made = rows.filter((r) => closed.has(r.employeeId));
  const fresh = employees.filter((e) => closed.has(e.id));
  await raiseAlerts(ctx, [
    ...(await contingentAlertsOf(ctx, settings, monday, made)),
    ...(await forfaitAlertsOf(ctx, settings, sunday, fresh)),
  ]);
  return made.length;
}

const hoursText = (minutes: number) => `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')}`;

/** The shares of the annual contingent (of the Monday's calendar year) that the new counters' overtime passes. */
async function contingentAlertsOf(
  ctx: TenantContext,
  settings: HrSettingsValues,
  monday: string,
  made: {
    employeeId: string;
    overtimeFirstMinutes: number;
    overtimeSecondMinutes: number;
    replacementRestMinutes: number;
  }[],
): Promise<NewAlert[]> {
  const counting = made.filter(
    (r) => r.overtimeFirstMinutes + r.overtimeSecondMinutes > 0 && !r.replacementRestMinutes,
  );
  if (!counting.length || !settings.annualContingentMinutes) return [];
  const year = monday.slice(0, 4);
  const used = await contingentUsed(
    ctx.em,
    counting.map((r) => r.employeeId),
    `${year}-01-01`,
    monday,
  );
  const contingent = settings.annualContingentMinutes;
  return counting.flatMap((r) =>
    contingentAlerts(used.get(r.employeeId) ?? 0, r.overtimeFirstMinutes + r.overtimeSecondMinutes, contingent).map(
      ({ share, usedMinutes }) => ({
        employeeId: r.employeeId,
        rule: 'annual_contingent' as const,
        periodKey: `${year}-${String(Math.round(share * 100)).padStart(3, '0')}`,
        measuredMinutes: usedMinutes,
        limitMinutes: Math.round(share * contingent),
        detail: `${hoursText(usedMinutes)} of overtime in ${year}: ${Math.round(share * 100)} % of the annual contingent of ${hoursText(contingent)}`,
      }),
    ),
  );
}

/**
 * Employees au forfait jours whose days worked in the calendar year, to the week's Sunday, pass their forfait
 * (pro rata of a year begun or ended mid-way). Their measured and limit values are days (a half day rounded up).
 */
async function forfaitAlertsOf(
  ctx: TenantContext,
  settings: HrSettingsValues,
  sunday: string,
  fresh: WeekEmployee[],
): Promise<NewAlert[]> {
  const forfait = fresh.filter((e) => e.workTimeMode === 'forfait_days');
  if (!forfait.length) return [];
  const year = Number(sunday.slice(0, 4));
  const punches = await loadPunches(
    ctx.em,
    forfait.map((e) => e.id),
    new Date(Date.parse(`${year}-01-01T00:00:00Z`) - DAY_MS),
    new Date(Date.parse(`${sunday}T00:00:00Z`) + 2 * DAY_MS),
  );
  const holidays = holidayDates(`${year}-01-01`, `${year}-12-31`);
  const alerts: NewAlert[] = [];
  for (const e of forfait) {
    const days = dailyTime(workIntervals(punches.get(e.id) ?? []).intervals, e.timeZone).filter(
      (d) => d.date >= `${year}-01-01` && d.date <= sunday,
    );
    const worked = daysWorked(days);
    const { forfaitDays } = forfaitYear(year, e.forfaitDays ?? settings.forfaitDays, e, holidays);
    if (worked > forfaitDays)
      alerts.push({
        employeeId: e.id,
        rule: 'forfait_days',
        periodKey: String(year),
        measuredMinutes: Math.ceil(worked),
        limitMinutes: Math.ceil(forfaitDays),
        detail: `${worked} days worked in ${year} to ${sunday}, beyond the forfait of ${forfaitDays} days`,
      });
  }
  return alerts;
}
