import { isUUID } from 'class-validator';
import { DateTime } from 'luxon';
import { CalendarEvent } from '../../../entities/core/calendar';
import { Staff } from '../../../entities/core/booking';
import { forbidden, invalidField, notFound } from '../../../lib/errors';
import { checkStorable, isUtcTimestamp } from '../../../lib/calendar';
import { keysetAfter, keysetTimeKey, lean, type Lean } from '../../../lib/lean';
import { decodeCursor, toKeysetPage, type Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { getBusiness } from '../org/getBusiness';
import { findStaff } from './catalogue';

/** Longest event accepted (an all-day event of a long absence included). */
export const MAX_EVENT_DAYS = 366;

export interface CalendarEventInput {
  title?: string;
  description?: string | null;
  location?: string | null;
  startAt?: Date;
  endAt?: Date;
  allDay?: boolean;
  busy?: boolean;
  staffId?: string | null;
}

const caller = (ctx: TenantContext): string => {
  if (!ctx.userId) throw forbidden('permission_denied', 'Calendar events belong to a member');
  return ctx.userId;
};

/** One of the caller's events; another member's, a malformed id or another organisation's: 404. */
export async function findOwnEvent(ctx: TenantContext, id: string): Promise<CalendarEvent> {
  const found = isUUID(id) ? await ctx.em.findOne(CalendarEvent, { id, ownerId: caller(ctx) }) : null;
  if (!found) throw notFound('Calendar event');
  return found;
}

/**
 * Which staff member's slots an event blocks. Their own staff record (linked to the caller) is implied when
 * staffId is absent; naming another staff member takes `core.appointments.manage` (403 otherwise).
 */
async function checkStaff(ctx: TenantContext, staffId: string | null | undefined): Promise<void> {
  if (!staffId) return;
  const staff = await findStaff(ctx.em, staffId);
  if (staff.userId === ctx.userId) return;
  const permissions = await ctx.services.permissions.of(ctx.tenantId, caller(ctx));
  if (!permissions.has('core.appointments.manage')) throw forbidden('permission_denied', 'Blocking another staff member\'s time needs core.appointments.manage');
}

/** All-day events run from local midnight to local midnight in the business's zone (stored in UTC). */
async function normalise(ctx: TenantContext, event: Pick<CalendarEvent, 'startAt' | 'endAt' | 'allDay'>): Promise<void> {
  if (event.allDay) {
    const zone = (await getBusiness(ctx)).timeZone;
    const start = DateTime.fromJSDate(event.startAt, { zone }).startOf('day');
    const lastDay = DateTime.fromJSDate(new Date(Math.max(event.endAt.getTime() - 1, event.startAt.getTime())), { zone }).startOf('day');
    event.startAt = start.toJSDate();
    event.endAt = lastDay.plus({ days: 1 }).toJSDate();
    checkStorable('startAt', 'an all-day event, from local midnight to local midnight,', event.startAt, event.endAt);
  }
  if (!(event.startAt < event.endAt)) throw invalidField('endAt', 'must be after startAt');
  if (event.endAt.getTime() - event.startAt.getTime() > MAX_EVENT_DAYS * 86_400_000) throw invalidField('endAt', `an event lasts at most ${MAX_EVENT_DAYS} days`);
}

export async function createCalendarEvent(ctx: TenantContext, input: CalendarEventInput & { title: string; startAt: Date; endAt: Date }): Promise<CalendarEvent> {
  const ownerId = caller(ctx);
  await checkStaff(ctx, input.staffId);
  const event = ctx.em.create(CalendarEvent, {
    tenantId: ctx.tenantId,
    ownerId,
    staffId: input.staffId ?? null,
    title: input.title.trim(),
    description: input.description ?? null,
    location: input.location ?? null,
    startAt: input.startAt,
    endAt: input.endAt,
    allDay: input.allDay ?? false,
    busy: input.busy ?? true,
  });
  await normalise(ctx, event);
  await ctx.em.flush();
  return event;
}

export async function updateCalendarEvent(ctx: TenantContext, id: string, input: CalendarEventInput): Promise<CalendarEvent> {
  const event = await findOwnEvent(ctx, id);
  if (input.staffId !== undefined && input.staffId !== event.staffId) await checkStaff(ctx, input.staffId);
  if (input.title !== undefined) event.title = input.title.trim();
  if (input.description !== undefined) event.description = input.description;
  if (input.location !== undefined) event.location = input.location;
  if (input.startAt !== undefined) event.startAt = input.startAt;
  if (input.endAt !== undefined) event.endAt = input.endAt;
  if (input.allDay !== undefined) event.allDay = input.allDay;
  if (input.busy !== undefined) event.busy = input.busy;
  if (input.staffId !== undefined) event.staffId = input.staffId;
  await normalise(ctx, event);
  event.updatedAt = new Date();
  await ctx.em.flush();
  return event;
}

export async function deleteCalendarEvent(ctx: TenantContext, id: string): Promise<void> {
  const event = await findOwnEvent(ctx, id);
  await ctx.em.remove(event).flush();
}

export interface ListCalendarEventsProps {
  from?: Date;
  to?: Date;
  limit: number;
  cursor?: string;
}

// Lean statements (docs/database-path.md) of the GET routes: the owner is always a condition (events are private).
const ownEventById = lean(CalendarEvent, { where: 'id = $1 and owner_id = $2' });
// One round trip: the page starts after the cursor's position (start to the microsecond $4, id $5; both null on
// the first page) by (start, id), an index range on (tenant_id, owner_id, start_at). The cursor names no row: a
// deleted last event does not move the next page, and another member's cursor only positions the caller among
// their own events.
const ownEventsPage = lean(CalendarEvent, {
  extra: { startKey: keysetTimeKey('calendar_events', 'start_at') },
  where: `owner_id = $1 and ($2::timestamptz is null or end_at > $2) and ($3::timestamptz is null or start_at < $3)
    and ${keysetAfter('calendar_events', 'start_at', '$4::timestamptz', '$5::uuid', "'-infinity'::timestamptz")}`,
  orderBy: 'start_at asc, id asc',
  limitParam: '$6',
});

/** GET /api/calendar/events/{id}: one of the caller's events; another member's, a malformed id or another organisation's: 404. */
export async function getOwnEvent(ctx: TenantContext, id: string): Promise<Lean<CalendarEvent>> {
  return ownEventById.byId('Calendar event', ctx, id, caller(ctx));
}

/**
 * The caller's events overlapping [from, to), by start then id; the cursor (opaque) holds the last item's start
 * and id; an unreadable one is 400 `validation_failed` on `cursor`.
 */
export async function listCalendarEvents(ctx: TenantContext, props: ListCalendarEventsProps): Promise<Page<Lean<CalendarEvent>>> {
  const ownerId = caller(ctx);
  const [startKey, id] = props.cursor ? decodeCursor(props.cursor, isUtcTimestamp) : [null, null];
  const rows = await ownEventsPage.all(ctx, ownerId, props.from ?? null, props.to ?? null, startKey, id, props.limit + 1);
  return toKeysetPage(rows, props.limit, (row) => String(row.startKey));
}

/** The active staff record linked to a member, if any. */
export const staffOfUser = (ctx: TenantContext, userId: string) => ctx.em.findOne(Staff, { userId }, { orderBy: { active: 'desc', id: 'asc' } });
