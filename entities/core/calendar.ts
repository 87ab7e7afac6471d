import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';
import { Staff } from './booking';

/** Column sizes of calendar events: the columns below and the request rules (api/core/booking/dtos.ts) read them here. */
export const CALENDAR_EVENT_SIZES = { title: 200, description: 4000, location: 300 } as const;

/**
 * A calendar event of a member (meetings, blocked time). `busy` events count in free/busy and remove booking
 * slots of the staff member linked to the owner (or of `staffId` when set). Times in UTC; all-day events run
 * from midnight to midnight in the business's time zone.
 */
export const CalendarEvent = defineEntity({
  name: 'CalendarEvent',
  tableName: 'calendar_events',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'ownerId', 'startAt'] }, { properties: ['tenantId', 'staffId', 'startAt'] }],
  checks: [{ name: 'calendar_events_range_check', expression: 'start_at < end_at' }],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    ownerId: p.uuid(),
    staffId: () => p.manyToOne(Staff).mapToPk().fieldName('staff_id').deleteRule('cascade').nullable(),
    title: p.string().length(CALENDAR_EVENT_SIZES.title),
    description: p.string().length(CALENDAR_EVENT_SIZES.description).nullable(),
    location: p.string().length(CALENDAR_EVENT_SIZES.location).nullable(),
    startAt: p.datetime(),
    endAt: p.datetime(),
    allDay: p.boolean().default(false),
    busy: p.boolean().default(true),
  },
});
export type CalendarEvent = InferEntity<typeof CalendarEvent>;

/**
 * A member's iCalendar feed. The address carries `<id>.<secret>`; only the secret's SHA-256 is stored, so a
 * leaked database does not leak feeds. Rotating replaces the row (the old address stops working at once).
 */
export const CalendarFeed = defineEntity({
  name: 'CalendarFeed',
  tableName: 'calendar_feeds',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'userId'] }],
  properties: {
    ...tenantColumns(),
    userId: p.uuid(),
    secretHash: p.string().length(64),
  },
});
export type CalendarFeed = InferEntity<typeof CalendarFeed>;
