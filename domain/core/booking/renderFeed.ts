import { isUUID } from 'class-validator';
import ical, { ICalEventBusyStatus, ICalEventStatus, ICalEventTransparency } from 'ical-generator';
import { DateTime } from 'luxon';
import type { CalendarFeed } from '../../../entities/core/calendar';
import { notFound } from '../../../lib/errors';
import { hashToken, sameBytes } from '../../../lib/tokens';
import { tenantContext, type TenantContext } from '../../context';
import type { Services } from '../../services';
import { isModuleActive } from '../org/activeModules';
import { getBusiness } from '../org/getBusiness';
import { liveAppointmentsOf } from './store/appointments';
import { feedById, isMember, ownEventsBetween } from './store/calendar';
import { catalogueNames, staffIdsOfUser } from './store/catalogue';

/** What the feed covers around now: the recent past and the year ahead. */
export const FEED_PAST_DAYS = 60;
export const FEED_FUTURE_DAYS = 366;
/** Most items of one kind in one feed. */
const FEED_MAX_ITEMS = 5000;

/** The feed a `<feedId>.<secret>.ics` names, or 404 (unknown, rotated, wrong secret, member gone, module lost). */
async function openFeed(services: Services, token: string): Promise<{ feed: CalendarFeed; ctx: TenantContext }> {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})\.ics$/.exec(token);
  if (!match || !isUUID(match[1])) throw notFound('Feed');
  const feed = await feedById(services, match[1]);
  const given = Buffer.from(hashToken(match[2]));
  const stored = Buffer.from(feed?.secretHash ?? '');
  if (!feed || !sameBytes(given, stored)) throw notFound('Feed');
  const ctx = tenantContext(services, feed.tenantId, feed.userId);
  if (!(await isMember(ctx.em, feed.userId))) throw notFound('Feed');
  if (!isModuleActive(await getBusiness(ctx), await services.entitlements.get(feed.tenantId), 'core'))
    throw notFound('Feed');
  return { feed, ctx };
}

const APPOINTMENT_STATUS: Record<string, ICalEventStatus> = {
  booked: ICalEventStatus.TENTATIVE,
  confirmed: ICalEventStatus.CONFIRMED,
  completed: ICalEventStatus.CONFIRMED,
  no_show: ICalEventStatus.CONFIRMED,
};

/**
 * The member's calendar as iCalendar (RFC 5545, written by ical-generator): their own events and the
 * appointments of the staff member linked to them, from FEED_PAST_DAYS ago to FEED_FUTURE_DAYS ahead. Times are
 * UTC; all-day events are dates in the business's zone. Stable UIDs, so clients update in place.
 */
export async function renderFeed(services: Services, token: string, now = new Date()): Promise<string> {
  const { feed, ctx } = await openFeed(services, token);
  const business = await getBusiness(ctx);
  const from = DateTime.fromJSDate(now).minus({ days: FEED_PAST_DAYS }).toJSDate();
  const to = DateTime.fromJSDate(now).plus({ days: FEED_FUTURE_DAYS }).toJSDate();
  const staffIds = await staffIdsOfUser(ctx.em, feed.userId);
  const [events, appointments] = await Promise.all([
    ownEventsBetween(ctx.em, feed.userId, from, to, FEED_MAX_ITEMS),
    staffIds.length ? liveAppointmentsOf(ctx.em, staffIds, from, to, FEED_MAX_ITEMS) : Promise.resolve([]),
  ]);
  const serviceName = (
    await catalogueNames(
      ctx.em,
      appointments.map((a) => a.serviceId),
      [],
    )
  ).services;
  const calendar = ical({
    name: business.name,
    prodId: { company: 'Platform Suite', product: 'Booking', language: 'EN' },
    ttl: 900,
  });
  for (const e of events) {
    const zoned = (d: Date) => DateTime.fromJSDate(d, { zone: business.timeZone });
    calendar.createEvent({
      id: `event-${e.id}@platform-suite`,
      start: e.allDay ? zoned(e.startAt) : e.startAt,
      end: e.allDay ? zoned(e.endAt) : e.endAt,
      allDay: e.allDay,
      summary: e.title,
      description: e.description ?? null,
      location: e.location ?? null,
      transparency: e.busy ? ICalEventTransparency.OPAQUE : ICalEventTransparency.TRANSPARENT,
      busystatus: e.busy ? ICalEventBusyStatus.BUSY : ICalEventBusyStatus.FREE,
      lastModified: e.updatedAt,
      created: e.createdAt,
    });
  }
  for (const a of appointments) {
    const service = serviceName.get(a.serviceId) ?? 'Appointment';
    calendar.createEvent({
      id: `appointment-${a.id}@platform-suite`,
      start: a.startAt,
      end: a.endAt,
      summary: a.attendeeName ? `${service}: ${a.attendeeName}` : service,
      description: a.notes ?? null,
      status: APPOINTMENT_STATUS[a.status] ?? ICalEventStatus.CONFIRMED,
      transparency: ICalEventTransparency.OPAQUE,
      busystatus: ICalEventBusyStatus.BUSY,
      lastModified: a.updatedAt,
      created: a.createdAt,
    });
  }
  // ical-generator joins the lines with CRLF but ends the last without one; RFC 5545 §3.1 ends every line so.
  return `${calendar.toString()}\r\n`;
}
