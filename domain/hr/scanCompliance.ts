import { DateTime } from 'luxon';
import { newId } from '../../entities/base';
import { HrEmployee } from '../../entities/hr/employee';
import { notify } from '../notifications/notify';
import type { TenantContext } from '../context';
import { ruleSetOf } from './complianceRules';
import { evaluateCompliance, type Breach } from './evaluateCompliance';
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
export async function scanCompliance(ctx: TenantContext, props: { employeeIds: string[]; from: string; to: string }): Promise<ScanResult> {
  const employees = await ctx.em.find(HrEmployee, { id: { $in: props.employeeIds } }, { fields: ['id', 'timeZone'] });
  if (!employees.length) return { employees: 0, alerts: 0 };
  const { rules } = await ruleSetOf(ctx.em);
  // Read back the weeks the average and the weekly rest look at, with a day of margin for every zone.
  const lo = DateTime.fromISO(props.from, { zone: 'utc' }).startOf('week').minus({ weeks: rules.averageWeeks, days: 1 }).toJSDate();
  const hi = DateTime.fromISO(props.to, { zone: 'utc' }).endOf('week').plus({ days: 2 }).toJSDate();
  const punches = await loadPunches(ctx.em, employees.map((e) => e.id), lo, hi);
  const found: (Breach & { employeeId: string })[] = [];
  for (const employee of employees) {
    const { intervals } = workIntervals(punches.get(employee.id) ?? []);
    for (const breach of evaluateCompliance(intervals, employee.timeZone, props.from, props.to, rules)) found.push({ ...breach, employeeId: employee.id });
  }
  const raised: { id: string; employee_id: string; rule: string; period_key: string; measured_minutes: number; limit_minutes: number }[] = [];
  const now = new Date();
  for (let i = 0; i < found.length; i += 1000) {
    const chunk = found.slice(i, i + 1000);
    const rows = await ctx.em.execute<typeof raised>(
      `insert into hr_compliance_alerts (id, tenant_id, created_at, employee_id, rule, period_key, measured_minutes, limit_minutes, detail) values ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
       on conflict (employee_id, rule, period_key) do nothing returning id, employee_id, rule, period_key, measured_minutes, limit_minutes`,
      chunk.flatMap((b) => [newId(), ctx.tenantId, now, b.employeeId, b.rule, b.periodKey, b.measuredMinutes, b.limitMinutes, b.detail]),
    );
    raised.push(...rows);
  }
  await notify(
    ctx.services,
    'rh',
    raised.map((a) => ({ event: 'compliance.alert_raised' as const, tenantId: ctx.tenantId, subject: { employeeId: a.employee_id, alertId: a.id }, data: { rule: a.rule, periodKey: a.period_key, measuredMinutes: a.measured_minutes, limitMinutes: a.limit_minutes } })),
  );
  return { employees: employees.length, alerts: raised.length };
}

/** Longest range one scan covers. */
export const MAX_SCAN_DAYS = 120;
