import { DateTime } from 'luxon';
import { notify } from '../notifications/notify';
import type { TenantContext } from '../context';
import { evaluateCompliance } from './evaluateCompliance';
import { getComplianceRules } from './getComplianceRules';
import { employeeZones } from './store/employees';
import { insertAlerts, type NewAlert } from './store/compliance';
import { loadPunches, workIntervals } from './timeline';

export interface ScanResult {
  employees: number;
  /** Alerts raised by this scan (breaches already alerted are not raised again). */
  alerts: number;
}

/**
 * Scans employees' effective timelines (corrections applied) on the local days `from`..`to` against the
 * organisation's rule set and records one alert per new breach (unique per employee, rule and period), then
 * tells the hub about the new ones.
 */
export async function scanCompliance(
  ctx: TenantContext,
  props: { employeeIds: string[]; from: string; to: string },
): Promise<ScanResult> {
  const employees = await employeeZones(ctx.em, props.employeeIds);
  if (!employees.length) return { employees: 0, alerts: 0 };
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
    for (const breach of evaluateCompliance(intervals, employee.timeZone, props.from, props.to, rules))
      found.push({ ...breach, employeeId: employee.id });
  }
  const raised = await insertAlerts(ctx.em, ctx.tenantId, found);
  await notify(
    ctx.services,
    'rh',
    raised.map((a) => ({
      event: 'compliance.alert_raised' as const,
      tenantId: ctx.tenantId,
      subject: { employeeId: a.employee_id, alertId: a.id },
      data: {
        rule: a.rule,
        periodKey: a.period_key,
        measuredMinutes: a.measured_minutes,
        limitMinutes: a.limit_minutes,
      },
    })),
  );
  return { employees: employees.length, alerts: raised.length };
}

/** Longest range one scan covers. */
export const MAX_SCAN_DAYS = 120;
