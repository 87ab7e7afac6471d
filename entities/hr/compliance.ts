import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

/**
 * The organisation's ComplianceRuleSet (one row; absent means the French defaults of
 * domain/hr/complianceRules.ts). Limits are in minutes; a null limit turns its rule off.
 */
export const HrComplianceRuleSet = defineEntity({
  name: 'HrComplianceRuleSet',
  tableName: 'hr_compliance_rule_sets',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId'] }],
  properties: {
    ...tenantColumns(),
    maxDailyMinutes: p.integer().nullable(),
    maxWeeklyMinutes: p.integer().nullable(),
    maxAverageWeeklyMinutes: p.integer().nullable(),
    averageWeeks: p.integer(),
    minDailyRestMinutes: p.integer().nullable(),
    minWeeklyRestMinutes: p.integer().nullable(),
    breakAfterMinutes: p.integer().nullable(),
    minBreakMinutes: p.integer(),
    updatedBy: p.uuid().nullable(),
    updatedAt: updatedAt(),
  },
});
export type HrComplianceRuleSet = InferEntity<typeof HrComplianceRuleSet>;

export const complianceRules = [
  'max_daily_hours',
  'max_weekly_hours',
  'max_average_weekly_hours',
  'min_daily_rest',
  'min_weekly_rest',
  'min_break',
  'annual_contingent',
  'forfait_days',
] as const;
export type ComplianceRule = (typeof complianceRules)[number];

/**
 * A breach found by a scan, once per employee, rule and period (`periodKey`: the local day '2026-03-02' or the
 * ISO week '2026-W10'), so a scan run again raises nothing twice.
 */
/** Column size of an alert's acknowledgement note, which its request body takes too. */
export const ACKNOWLEDGE_NOTE_LENGTH = 500;

export const HrComplianceAlert = defineEntity({
  name: 'HrComplianceAlert',
  tableName: 'hr_compliance_alerts',
  filters: tenantFilter,
  uniques: [{ properties: ['employeeId', 'rule', 'periodKey'] }],
  indexes: [{ properties: ['tenantId', 'id'] }],
  properties: {
    ...tenantColumns(),
    employeeId: p.uuid(),
    rule: p.enum([...complianceRules]),
    periodKey: p.string().length(12),
    /** What was measured and the limit, in minutes. */
    measuredMinutes: p.integer(),
    limitMinutes: p.integer(),
    detail: p.string().length(500),
    acknowledgedAt: p.datetime().nullable(),
    acknowledgedBy: p.uuid().nullable(),
    acknowledgeNote: p.string().length(ACKNOWLEDGE_NOTE_LENGTH).nullable(),
    /** When a later scan no longer found the breach (a correction removed it); null while it stands. */
    resolvedAt: p.datetime().nullable(),
  },
});
export type HrComplianceAlert = InferEntity<typeof HrComplianceAlert>;
