import { LockMode } from '@mikro-orm/core';
import { newId } from '../../entities/base';
import { HrComplianceRuleSet } from '../../entities/hr/compliance';
import type { Em } from '../../lib/db';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';

/** A ComplianceRuleSet: limits in minutes, null turning a rule off. */
export interface RuleSet {
  maxDailyMinutes: number | null;
  maxWeeklyMinutes: number | null;
  maxAverageWeeklyMinutes: number | null;
  averageWeeks: number;
  minDailyRestMinutes: number | null;
  minWeeklyRestMinutes: number | null;
  breakAfterMinutes: number | null;
  minBreakMinutes: number;
}

/**
 * French working-time rules (Code du travail): at most 10 h a day (L3121-18), 48 h in a week (L3121-20), 44 h
 * on average over 12 consecutive weeks (L3121-22), 11 consecutive hours of daily rest (L3131-1), 35 h of weekly
 * rest (24 h + 11 h, L3132-2), a 20-minute break once the day reaches 6 h (L3121-16).
 */
export const FRENCH_RULES: RuleSet = {
  maxDailyMinutes: 600,
  maxWeeklyMinutes: 48 * 60,
  maxAverageWeeklyMinutes: 44 * 60,
  averageWeeks: 12,
  minDailyRestMinutes: 11 * 60,
  minWeeklyRestMinutes: 35 * 60,
  breakAfterMinutes: 6 * 60,
  minBreakMinutes: 20,
};

type Stored = { [K in keyof RuleSet]?: RuleSet[K] | undefined };
const pick = (r: Stored & Pick<RuleSet, 'averageWeeks' | 'minBreakMinutes'>): RuleSet => ({
  maxDailyMinutes: r.maxDailyMinutes ?? null,
  maxWeeklyMinutes: r.maxWeeklyMinutes ?? null,
  maxAverageWeeklyMinutes: r.maxAverageWeeklyMinutes ?? null,
  averageWeeks: r.averageWeeks,
  minDailyRestMinutes: r.minDailyRestMinutes ?? null,
  minWeeklyRestMinutes: r.minWeeklyRestMinutes ?? null,
  breakAfterMinutes: r.breakAfterMinutes ?? null,
  minBreakMinutes: r.minBreakMinutes,
});

export interface StoredRuleSet {
  rules: RuleSet;
  /** False while the organisation uses the defaults. */
  customised: boolean;
  updatedAt: Date | null;
  updatedBy: string | null;
}

/** The organisation's rule set (the French defaults until it is edited). */
export async function ruleSetOf(em: Em): Promise<StoredRuleSet> {
  const row = await em.findOne(HrComplianceRuleSet, {});
  return row ? { rules: pick(row), customised: true, updatedAt: row.updatedAt, updatedBy: row.updatedBy ?? null } : { rules: FRENCH_RULES, customised: false, updatedAt: null, updatedBy: null };
}

export const getComplianceRules = (ctx: TenantContext) => ruleSetOf(ctx.em);

/** Edits the rule set: given fields replace, null turns a rule off, absent ones are kept. Applies to later scans. */
export async function updateComplianceRules(ctx: TenantContext, changes: Partial<RuleSet>): Promise<StoredRuleSet> {
  await ctx.em.transactional(async (em) => {
    // The first edit makes the row from the defaults; concurrent edits then queue on its lock.
    const d = FRENCH_RULES;
    await em.execute(
      'insert into hr_compliance_rule_sets (id, tenant_id, created_at, updated_at, max_daily_minutes, max_weekly_minutes, max_average_weekly_minutes, average_weeks, min_daily_rest_minutes, min_weekly_rest_minutes, break_after_minutes, min_break_minutes) values (?, ?, now(), now(), ?, ?, ?, ?, ?, ?, ?, ?) on conflict (tenant_id) do nothing',
      [newId(), ctx.tenantId, d.maxDailyMinutes, d.maxWeeklyMinutes, d.maxAverageWeeklyMinutes, d.averageWeeks, d.minDailyRestMinutes, d.minWeeklyRestMinutes, d.breakAfterMinutes, d.minBreakMinutes],
    );
    const row = await em.findOneOrFail(HrComplianceRuleSet, {}, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const before = pick(row);
    for (const [key, value] of Object.entries(changes) as [keyof RuleSet, number | null | undefined][]) if (value !== undefined) (row as Record<keyof RuleSet, number | null>)[key] = value;
    row.updatedBy = ctx.userId;
    audit(em, { action: 'hr.compliance_rules.updated', actorId: ctx.userId, tenantId: ctx.tenantId, targetType: 'hr_compliance_rule_set', targetId: row.id, data: { before, after: pick(row) } });
  });
  return ruleSetOf(ctx.em);
}
