import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';

export const punchKinds = ['in', 'out'] as const;
export type PunchKind = (typeof punchKinds)[number];
export const clockSources = ['web', 'mobile', 'kiosk', 'badge', 'manual', 'api'] as const;
export type ClockSource = (typeof clockSources)[number];

/**
 * An entry (in) or exit (out) punch. Immutable: a trigger refuses UPDATE and DELETE whatever the caller.
 * Corrections are new rows (HrClockCorrection); the effective timeline is the events with their latest
 * correction applied.
 */
/** Column size of a punch's note and a correction's reason, which the request bodies take too. */
export const CLOCK_TEXT_LENGTH = 500;

export const HrClockEvent = defineEntity({
  name: 'HrClockEvent',
  tableName: 'hr_clock_events',
  filters: tenantFilter,
  indexes: [{ properties: ['employeeId', 'at'] }, { properties: ['tenantId', 'at'] }],
  properties: {
    ...tenantColumns(),
    employeeId: p.uuid(),
    kind: p.enum([...punchKinds]),
    at: p.datetime(),
    /** IANA zone the punch was made in. */
    timeZone: p.string().length(64),
    source: p.enum([...clockSources]),
    /** Who recorded it: the employee, or a manager entering a forgotten punch. */
    recordedBy: p.uuid().nullable(),
    note: p.string().length(CLOCK_TEXT_LENGTH).nullable(),
  },
});
export type HrClockEvent = InferEntity<typeof HrClockEvent>;

export const correctionActions = ['amend', 'void'] as const;
export type CorrectionAction = (typeof correctionActions)[number];

/**
 * A correction of a clock event: `amend` gives its effective time and/or kind, `void` cancels it. Immutable
 * too; an event's corrections apply in order, each field taking the latest value given (domain/hr/timeline.ts
 * correctedPunch), and all stay as the trail.
 */
export const HrClockCorrection = defineEntity({
  name: 'HrClockCorrection',
  tableName: 'hr_clock_corrections',
  filters: tenantFilter,
  indexes: [{ properties: ['clockEventId', 'id'] }],
  properties: {
    ...tenantColumns(),
    clockEventId: p.uuid(),
    employeeId: p.uuid(),
    action: p.enum([...correctionActions]),
    at: p.datetime().nullable(),
    kind: p.enum([...punchKinds]).nullable(),
    reason: p.string().length(CLOCK_TEXT_LENGTH),
    authorId: p.uuid().nullable(),
  },
});
export type HrClockCorrection = InferEntity<typeof HrClockCorrection>;
