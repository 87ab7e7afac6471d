import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';

/** One working period of a week day, local times of the schedule's zone ("HH:mm", end after start). */
export interface ScheduleSlot {
  /** ISO week day: 1 Monday ... 7 Sunday. */
  weekday: number;
  start: string;
  end: string;
}

/**
 * A weekly schedule of an employee, in force from `effectiveFrom` (a local date) until the next version's.
 * Versions are never edited in place: a new schedule is a new version, so past availability and RTT stay
 * computable as they were.
 */
export const HrSchedule = defineEntity({
  name: 'HrSchedule',
  tableName: 'hr_schedules',
  filters: tenantFilter,
  uniques: [{ properties: ['employeeId', 'effectiveFrom'] }],
  indexes: [{ properties: ['tenantId', 'employeeId'] }],
  properties: {
    ...tenantColumns(),
    employeeId: p.uuid(),
    effectiveFrom: p.date(),
    timeZone: p.string().length(64),
    slots: p.json<ScheduleSlot[]>(),
    createdBy: p.uuid().nullable(),
  },
});
export type HrSchedule = InferEntity<typeof HrSchedule>;
