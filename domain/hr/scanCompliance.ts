import { DateTime } from 'luxon';
import { addDays, dayNumber, mondayOf } from '../../lib/calendar';
import type { TenantContext } from '../context';
import { durationRulesOff, type RuleSet } from './complianceRules';
import { evaluateCompliance, isoWeekOf, SCANNED_RULES } from './evaluateCompliance';
import { getComplianceRules } from './getComplianceRules';
import { raiseAlerts } from './raiseAlerts';
import { employeeZones } from './store/employees';
import { resolveAlerts, type NewAlert } from './store/compliance';
import { loadPunches, workIntervals } from './timeline';

export interface ScanResult {
  employees: number;
  /** Alerts raised by this scan (breaches already alerted are not raised again). */
  alerts: number;
  /** Standing alerts of the scanned days that the scan no longer found (a correction removed the breach). */
  resolved: number;
}

/** The period keys a scan of `from`..`to` judges: its local days and the ISO weeks touching them. */
export function scannedPeriodKeys(from: string, to: string): string[] {
  const keys: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) keys.push(d);
  for (let monday = mondayOf(dayNumber(from)); monday <= dayNumber(to); monday += 7) keys.push(isoWeekOf(monday));
  return keys;
}

/**
 * Scans employees' effective timelines (corrections applied) on the local days `from`..`to` against the
 * organisation's rule set: one alert per new breach (unique per employee, rule and period), told to the hub, and
 * the standing alerts of those days and weeks that are no longer breached resolved. Employees au forfait jours
 * are held to the rests and the break only (L3121-62 lifts the maximum durations).
 */
export async function scanCompliance(
  ctx: TenantContext,
  props: { employeeIds: string[]; from: string; to: string },
): Promise<ScanResult> {
  const employees = await employeeZones(ctx.em, props.employeeIds);
  if (!employees.length) return { employees: 0, alerts: 0, resolved: 0 };
  const { rules } = await getComplianceRules(ctx);
  // Read back the weeks the average and the weekly rest look at, with a day of margin for every zone.
  const lo = DateTime.fromISO(props.from, { zone: 'utc' })
    .startOf('week')
    .minus({ weeks: rules.averageWeeks, days: 1 })
    .toJSDate();
  const hi = DateTime.fromISO(props.to, { zone: 'utc' }).endOf('week').plus({ days: 2 }).toJSDate();
  const punches = await loadPunches(
    ctx.em,
    employees.map((e) => e.id),
    lo,
    hi,
  );
  const found: NewAlert[] = [];
  for (const employee of employees) {
    const { intervals } = workIntervals(punches.get(employee.id) ?? []);
    const own: RuleSet = employee.workTimeMode === 'forfait_days' ? durationRulesOff(rules) : rules;
    for (const breach of evaluateCompliance(intervals, employee.timeZone, props.from, props.to, own))
      found.push({ ...breach, employeeId: employee.id });
  }
  const alerts = await raiseAlerts(ctx, found);
  const resolved = await resolveAlerts(ctx.em, {
    employeeIds: employees.map((e) => e.id),
    rules: SCANNED_RULES,
    periodKeys: scannedPeriodKeys(props.from, props.to),
    found: found.map((f) => `${f.employeeId} ${f.rule} ${f.periodKey}`),
  });
  return { employees: employees.length, alerts, resolved };
}

/** Longest range one scan covers. */
export const MAX_SCAN_DAYS = 120;
