import { LockMode } from '@mikro-orm/core';
import { newId } from '../../../entities/base';
import { HrComplianceAlert, HrComplianceRuleSet, type ComplianceRule } from '../../../entities/hr/compliance';
import { pgArray, type Em } from '../../../lib/db';
import { lean } from '../../../lib/lean';
import type { RuleSet } from '../complianceRules';

/** The compliance statements: the organisation's rule set and the alerts scans raise. */

// A lean statement (docs/database-path.md): every combination of filters is one prepared statement.
/** $1 employee, $2 rule, $3 acknowledged, $4 resolved, $5 cursor, $6 limit; newest first. */
export const alertsPage = lean(HrComplianceAlert, {
  where: `($1::uuid is null or employee_id = $1) and ($2::text is null or rule = $2) and ($3::boolean is null or (acknowledged_at is not null) = $3)
    and ($4::boolean is null or (resolved_at is not null) = $4) and ($5::uuid is null or id < $5)`,
  orderBy: 'id desc',
  limitParam: '$6',
});

export interface NewAlert {
  employeeId: string;
  rule: ComplianceRule;
  periodKey: string;
  measuredMinutes: number;
  limitMinutes: number;
  detail: string;
}

export interface RaisedAlert {
  id: string;
  employee_id: string;
  rule: string;
  period_key: string;
  measured_minutes: number;
  limit_minutes: number;
}

/**
 * Inserts alerts, skipping those standing already (unique per employee, rule and period); a resolved one found
 * again stands again with what was measured now. Returns the new and the reopened ones.
 */
export async function insertAlerts(em: Em, tenantId: string, alerts: NewAlert[]): Promise<RaisedAlert[]> {
  const raised: RaisedAlert[] = [];
  const now = new Date();
  for (let i = 0; i < alerts.length; i += 1000) {
    const chunk = alerts.slice(i, i + 1000);
    const rows = await em.execute<RaisedAlert[]>(
      `insert into hr_compliance_alerts (id, tenant_id, created_at, employee_id, rule, period_key, measured_minutes, limit_minutes, detail) values ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
       on conflict (employee_id, rule, period_key) do update set resolved_at = null, measured_minutes = excluded.measured_minutes, limit_minutes = excluded.limit_minutes, detail = excluded.detail
         where hr_compliance_alerts.resolved_at is not null
       returning id, employee_id, rule, period_key, measured_minutes, limit_minutes`,
      chunk.flatMap((b) => [
        newId(),
        tenantId,
        now,
        b.employeeId,
        b.rule,
        b.periodKey,
        b.measuredMinutes,
        b.limitMinutes,
        b.detail,
      ]),
    );
    raised.push(...rows);
  }
  return raised;
}

/**
 * Resolves the standing alerts of `rules` on `periodKeys` of some employees that a scan did not find again
 * (`found`: "employeeId rule periodKey"); returns how many.
 */
export async function resolveAlerts(
  em: Em,
  props: { employeeIds: string[]; rules: readonly string[]; periodKeys: string[]; found: string[] },
): Promise<number> {
  if (!props.employeeIds.length || !props.periodKeys.length) return 0;
  const rows = await em.execute<{ id: string }[]>(
    `update hr_compliance_alerts set resolved_at = now()
     where resolved_at is null and employee_id = any(?::uuid[]) and rule = any(?::text[]) and period_key = any(?::text[])
       and not (employee_id::text || ' ' || rule || ' ' || period_key = any(?::text[]))
     returning id`,
    [pgArray(props.employeeIds), pgArray(props.rules), pgArray(props.periodKeys), pgArray(props.found)],
  );
  return rows.length;
}

/** The organisation's rule set row, null while it uses the defaults. */
export const ruleSetRow = (em: Em) => em.findOne(HrComplianceRuleSet, {});

/**
 * The rule set row, locked until the transaction ends (concurrent edits queue on it); the first call makes it
 * from `defaults`.
 */
export async function lockRuleSet(em: Em, tenantId: string, defaults: RuleSet): Promise<HrComplianceRuleSet> {
  const d = defaults;
  await em.execute(
    'insert into hr_compliance_rule_sets (id, tenant_id, created_at, updated_at, max_daily_minutes, max_weekly_minutes, max_average_weekly_minutes, average_weeks, min_daily_rest_minutes, min_weekly_rest_minutes, break_after_minutes, min_break_minutes) values (?, ?, now(), now(), ?, ?, ?, ?, ?, ?, ?, ?) on conflict (tenant_id) do nothing',
    [
      newId(),
      tenantId,
      d.maxDailyMinutes,
      d.maxWeeklyMinutes,
      d.maxAverageWeeklyMinutes,
      d.averageWeeks,
      d.minDailyRestMinutes,
      d.minWeeklyRestMinutes,
      d.breakAfterMinutes,
      d.minBreakMinutes,
    ],
  );
  return em.findOneOrFail(HrComplianceRuleSet, {}, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}
