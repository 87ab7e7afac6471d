import type { HrComplianceRuleSet } from '../../entities/hr/compliance';

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

/** The rules of an employee au forfait jours: no maximum duration (L3121-62), the rests and the break kept. */
export const durationRulesOff = (rules: RuleSet): RuleSet => ({
  ...rules,
  maxDailyMinutes: null,
  maxWeeklyMinutes: null,
  maxAverageWeeklyMinutes: null,
});

type Stored = { [K in keyof RuleSet]?: RuleSet[K] | undefined };
/** The limits of a stored rule set (absent ones off). */
export const limitsOf = (r: Stored & Pick<RuleSet, 'averageWeeks' | 'minBreakMinutes'>): RuleSet => ({
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

/** What the organisation's rule set row says: the French defaults while there is none. */
export function storedRuleSet(row: HrComplianceRuleSet | null): StoredRuleSet {
  return row
    ? { rules: limitsOf(row), customised: true, updatedAt: row.updatedAt, updatedBy: row.updatedBy ?? null }
    : { rules: FRENCH_RULES, customised: false, updatedAt: null, updatedBy: null };
}

/** A rule set edited by `changes`: a given field replaces, null turns a rule off, an absent (undefined) one is kept. */
export function withChanges(rules: RuleSet, changes: Partial<RuleSet>): RuleSet {
  const next = { ...rules };
  for (const [key, value] of Object.entries(changes) as [keyof RuleSet, number | null | undefined][])
    if (value !== undefined) (next as Record<keyof RuleSet, number | null>)[key] = value;
  return next;
}
