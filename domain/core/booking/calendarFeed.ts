import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { createHmac } from 'node:crypto';
import { isUUID } from 'class-validator';
import ical, { ICalEventBusyStatus, ICalEventStatus, ICalEventTransparency } from 'ical-generator';
import { DateTime } from 'luxon';
import { Appointment, BookingService, Staff } from '../../../entities/core/booking';
import { CalendarEvent, CalendarFeed } from '../../../entities/core/calendar';
import { Membership } from '../../../entities/identity/organization';
import { forbidden, notFound } from '../../../lib/errors';
import { tenantContext, type TenantContext } from '../../context';
import type { Services } from '../../services';
import { isModuleActive } from '../org/activeModules';
import { getBusiness } from '../org/getBusiness';
import { hashToken, sameBytes } from '../../../lib/tokens';

/** What the feed covers around now: the recent past and the year ahead. */
export const FEED_PAST_DAYS = 60;
export const FEED_FUTURE_DAYS = 366;
/** Most items of one kind in one feed. */
const FEED_MAX_ITEMS = 5000;

/**
 * The feed's secret is derived (HMAC with a key of its own, from JWT_SECRET) from the feed row's id, so
 * sync-info can show the address again without storing it; the row stores its SHA-256 only, which the feed
 * route compares. Rotating deletes the row and makes another: a new id, a new secret, the old address dead.
 */
const feedSecret = (services: Services, feedId: string) => createHmac('sha256', services.deriveSecret('calendar-feed')).update(feedId).digest('base64url');

export interface SyncInfo {
  feedUrl: string;
  feedCreatedAt: Date;
  caldav: { url: string; username: string } | null;
}

const userOf = (ctx: TenantContext): string => {
  if (!ctx.userId) throw forbidden('permission_denied', 'A calendar feed belongs to a member');
  return ctx.userId;
};

async function present(ctx: TenantContext, feed: CalendarFeed): Promise<SyncInfo> {
  const { config } = ctx.services;
  const base = config.PUBLIC_URL.replace(/\/$/, '');
  let caldav: SyncInfo['caldav'] = null;
  if (config.CALDAV_URL) {
    const member = await ctx.em.findOneOrFail(Membership, { user: userOf(ctx) }, { populate: ['user'] });
    caldav = { url: `${config.CALDAV_URL.replace(/\/$/, '')}/calendars/${encodeURIComponent(member.user.email)}/`, username: member.user.email };
  }
  return { feedUrl: `${base}/api/calendar/feed/${feed.id}.${feedSecret(ctx.services, feed.id)}.ics`, feedCreatedAt: feed.createdAt, caldav };
}

/** The caller's feed address (made on first call; concurrent first calls make one) and the CalDAV details when configured. */
export async function syncInfo(ctx: TenantContext): Promise<SyncInfo> {
  const userId = userOf(ctx);
  const existing = await ctx.em.findOne(CalendarFeed, { userId });
  if (existing) return present(ctx, existing);
  const feed = ctx.em.create(CalendarFeed, { tenantId: ctx.tenantId, userId, secretHash: '' });
  feed.secretHash = hashToken(feedSecret(ctx.services, feed.id));
  try {
    await ctx.em.flush();
  } catch (err) {
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
    ctx.em.clear();
    return present(ctx, await ctx.em.findOneOrFail(CalendarFeed, { userId }));
  }
  return present(ctx, feed);
}

/** Revokes the caller's feed address (the next sync-info makes a new one). */
export async function revokeFeed(ctx: TenantContext): Promise<void> {
  await ctx.em.nativeDelete(CalendarFeed, { userId: userOf(ctx) });
}

/** The feed a `<feedId>.<secret>.ics` names, or 404 (unknown, rotated, wrong secret, member gone, module lost). */
async function openFeed(services: Services, token: string): Promise<{ feed: CalendarFeed; ctx: TenantContext }> {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})\.ics$/.exec(token);
  if (!match || !isUUID(match[1])) throw notFound('Feed');
  const feed = await services.orm.em.fork().findOne(CalendarFeed, { id: match[1] }, { filters: false });
  const given = Buffer.from(hashToken(match[2]));
  const stored = Buffer.from(feed?.secretHash ?? '');
  if (!feed || !sameBytes(given, stored)) throw notFound('Feed');
  const ctx = tenantContext(services, feed.tenantId, feed.userId);
  const member = await ctx.em.findOne(Membership, { user: feed.userId }, { fields: ['id'] });
  if (!member) throw notFound('Feed');
  if (!isModuleActive(await getBusiness(ctx), await services.entitlements.get(feed.tenantId), 'core')) throw notFound('Feed');
  return { feed, ctx };
}

const APPOINTMENT_STATUS: Record<string, ICalEventStatus> = { booked: ICalEventStatus.TENTATIVE, confirmed: ICalEventStatus.CONFIRMED, completed: ICalEventStatus.CONFIRMED, no_show: ICalEventStatus.CONFIRMED };

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
  const staffIds = (await ctx.em.find(Staff, { userId: feed.userId }, { fields: ['id'] })).map((s) => s.id);
  const [events, appointments] = await Promise.all([
    ctx.em.find(CalendarEvent, { ownerId: feed.userId, startAt: { $lt: to }, endAt: { $gt: from } }, { orderBy: { startAt: 'asc', id: 'asc' }, limit: FEED_MAX_ITEMS }),
    staffIds.length
      ? ctx.em.find(Appointment, { staffId: { $in: staffIds }, status: { $ne: 'cancelled' }, startAt: { $lt: to }, endAt: { $gt: from } }, { orderBy: { startAt: 'asc', id: 'asc' }, limit: FEED_MAX_ITEMS })
      : Promise.resolve([]),
  ]);
  const serviceIds = [...new Set(appointments.map((a) => a.serviceId))];
  const named = serviceIds.length ? await ctx.em.find(BookingService, { id: { $in: serviceIds } }, { fields: ['id', 'name'] }) : [];
  const serviceName = new Map(named.map((s) => [s.id, s.name]));
  const calendar = ical({ name: business.name, prodId: { company: 'Platform Suite', product: 'Booking', language: 'EN' }, ttl: 900 });
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
