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
  indexes: [
    { properties: ['tenantId', 'ownerId', 'startAt'] },
    { properties: ['tenantId', 'staffId', 'startAt'] },
    // CalDAV: one resource name per member's calendar, and the changes since a sync token.
    {
      name: 'calendar_events_dav_name_unique',
      expression: `create unique index "calendar_events_dav_name_unique" on "calendar_events" ("tenant_id", "owner_id", "dav_name") where "dav_name" is not null`,
    },
    { name: 'calendar_events_dav_seq_index', properties: ['tenantId', 'ownerId', 'davSeq'] },
  ],
  checks: [
    { name: 'calendar_events_range_check', expression: 'start_at < end_at' },
    { name: 'calendar_events_recurring_check', expression: 'not recurring or ical is not null' },
  ],
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
    /** CalDAV: the event's iCalendar UID and resource name ("<name>.ics") when a DAV client wrote it. */
    icalUid: p.string().length(255).nullable(),
    davName: p.string().length(255).nullable(),
    /** The iCalendar object as the DAV client PUT it (answered as is by GET); null once changed through the API. */
    ical: p.text().nullable(),
    /** Change stamp (the sequence calendar_dav_seq, set by a trigger on every write): ETag and sync tokens. */
    davSeq: p.bigint('number').nullable(),
    /**
     * The object (`ical`) carries RRULE/RDATE: its occurrences are expanded at read time; startAt/endAt are the first
     * one, recursUntil the last one's end when the rule ends (null: it does not).
     */
    recurring: p.boolean().default(false),
    recursUntil: p.datetime().nullable(),
  },
});
export type CalendarEvent = InferEntity<typeof CalendarEvent>;

/**
 * A CalDAV resource of a member's calendar that was deleted (written by a trigger on calendar_events): what a
 * sync-collection report since an older token answers as gone.
 */
export const CalendarDavTombstone = defineEntity({
  name: 'CalendarDavTombstone',
  tableName: 'calendar_dav_tombstones',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'ownerId', 'seq'] }],
  properties: {
    ...tenantColumns(),
    ownerId: p.uuid(),
    davName: p.string().length(255),
    seq: p.bigint('number'),
  },
});
export type CalendarDavTombstone = InferEntity<typeof CalendarDavTombstone>;

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

/** What a connection's last sync came to: pending (never synced), ok, error (lastError says why). */
export const calendarConnectionStatuses = ['pending', 'ok', 'error'] as const;
export type CalendarConnectionStatus = (typeof calendarConnectionStatuses)[number];

/** Column sizes of calendar connections (the request rules read them here). */
export const CALENDAR_CONNECTION_SIZES = { name: 200, url: 2000, username: 255, password: 500, error: 1000 } as const;

/**
 * A member's external CalDAV calendar, read as busy time: its URL (a calendar collection, or an account the
 * calendars are discovered from), user name and app password (sealed: lib/seal.ts under a key for this purpose).
 */
export const CalendarConnection = defineEntity({
  name: 'CalendarConnection',
  tableName: 'calendar_connections',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'ownerId', 'url'] }],
  checks: [{ name: 'calendar_connections_error_check', expression: "status <> 'error' or last_error is not null" }],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    ownerId: p.uuid(),
    name: p.string().length(CALENDAR_CONNECTION_SIZES.name),
    url: p.string().length(CALENDAR_CONNECTION_SIZES.url),
    username: p.string().length(CALENDAR_CONNECTION_SIZES.username),
    passwordSealed: p.text().hidden(),
    status: p.enum([...calendarConnectionStatuses]).default('pending'),
    lastError: p.string().length(CALENDAR_CONNECTION_SIZES.error).nullable(),
    lastSyncedAt: p.datetime().nullable(),
    /** Failed syncs in a row (0 after a success). */
    failures: p.integer().default(0),
  },
});
export type CalendarConnection = InferEntity<typeof CalendarConnection>;

/**
 * A calendar object of a connection, as busy time: its href and ETag (the next sync fetches only what changed),
 * its first occurrence, and for a recurring one the object itself (expanded at read time) and its last end.
 */
export const CalendarExternalEvent = defineEntity({
  name: 'CalendarExternalEvent',
  tableName: 'calendar_external_events',
  filters: tenantFilter,
  uniques: [{ properties: ['connectionId', 'href'] }],
  indexes: [{ properties: ['tenantId', 'ownerId', 'startAt'] }],
  checks: [
    { name: 'calendar_external_events_range_check', expression: 'start_at < end_at' },
    { name: 'calendar_external_events_recurring_check', expression: 'not recurring or ical is not null' },
  ],
  properties: {
    ...tenantColumns(),
    connectionId: () =>
      p.manyToOne(CalendarConnection).mapToPk().fieldName('connection_id').deleteRule('cascade').updateRule('cascade'),
    ownerId: p.uuid(),
    href: p.string().length(CALENDAR_CONNECTION_SIZES.url),
    etag: p.string().length(500),
    startAt: p.datetime(),
    endAt: p.datetime(),
    busy: p.boolean(),
    recurring: p.boolean().default(false),
    recursUntil: p.datetime().nullable(),
    ical: p.text().nullable(),
  },
});
export type CalendarExternalEvent = InferEntity<typeof CalendarExternalEvent>;
