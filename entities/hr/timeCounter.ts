import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';

/**
 * The closed time counter of one employee and ISO week (`week`: its Monday, local), from the effective punches
 * (corrections applied) when the week was closed (domain/hr/closeWeeks.ts): worked, night and Sunday minutes, the
 * schedule's minutes, overtime at the first and second rate, and the rest it would earn as repos compensateur de
 * remplacement. Immutable: the database refuses any UPDATE, DELETE or TRUNCATE; unique per employee and week.
 */
export const HrWeekCounter = defineEntity({
  name: 'HrWeekCounter',
  tableName: 'hr_week_counters',
  filters: tenantFilter,
  uniques: [{ properties: ['employeeId', 'week'] }],
  indexes: [{ properties: ['tenantId', 'employeeId', 'week'] }],
  checks: [{ name: 'hr_week_counters_monday_check', expression: 'extract(isodow from "week") = 1' }],
  properties: {
    ...tenantColumns(),
    employeeId: p.uuid(),
    week: p.date(),
    minutes: p.integer(),
    nightMinutes: p.integer(),
    sundayMinutes: p.integer(),
    scheduledMinutes: p.integer(),
    overtimeFirstMinutes: p.integer(),
    overtimeSecondMinutes: p.integer(),
    replacementRestMinutes: p.integer(),
    /** One of the week's intervals came from a corrected punch. */
    corrected: p.boolean(),
  },
});
export type HrWeekCounter = InferEntity<typeof HrWeekCounter>;
