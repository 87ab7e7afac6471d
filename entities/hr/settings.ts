import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

/**
 * The organisation's HR settings (one row; absent means the defaults). `fractionnementWaivedByDefault`: whether an
 * employee waives the days of fractionnement unless their own record says otherwise (L3141-19 lets an individual
 * agreement waive them; the default credits them).
 */
export const HrSettings = defineEntity({
  name: 'HrSettings',
  tableName: 'hr_settings',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId'] }],
  checks: [
    {
      name: 'hr_settings_working_time_check',
      expression:
        '((overtime_first_tier_minutes >= 0) AND (overtime_first_tier_minutes <= 7800) AND (overtime_first_rate >= 10) AND (overtime_first_rate <= 300) AND (overtime_second_rate >= 10) AND (overtime_second_rate <= 300) AND (annual_contingent_minutes >= 0) AND (annual_contingent_minutes <= 240000) AND (forfait_days >= 1) AND (forfait_days <= 218))',
    },
  ],
  properties: {
    ...tenantColumns(),
    fractionnementWaivedByDefault: p.boolean().default(false),
    /** Overtime of the agreement (L3121-33): minutes at the first rate, and the increases in percent (>= 10). */
    overtimeFirstTierMinutes: p.integer().default(480),
    overtimeFirstRate: p.integer().default(25),
    overtimeSecondRate: p.integer().default(50),
    /** Overtime compensated by repos compensateur de remplacement instead of pay (L3121-37). */
    replacementRest: p.boolean().default(false),
    /** The annual contingent of overtime (L3121-30; D3121-24: 220 h). */
    annualContingentMinutes: p.integer().default(13200),
    /** The yearly forfait of employees au forfait jours without their own (L3121-64: at most 218). */
    forfaitDays: p.integer().default(218),
    updatedBy: p.uuid().nullable(),
    updatedAt: updatedAt(),
  },
});
export type HrSettings = InferEntity<typeof HrSettings>;
