import type { ModuleMount } from '../../http/mount';
import { created, noContent } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { createCalendarEvent, deleteCalendarEvent, getOwnEvent, listCalendarEvents, updateCalendarEvent } from '../../../domain/core/booking/calendarEvents';
import { renderFeed, revokeFeed, syncInfo } from '../../../domain/core/booking/calendarFeed';
import { staffFreeBusy } from '../../../domain/core/booking/freeBusy';
import { getBusiness } from '../../../domain/core/org/getBusiness';
import { bookingRead } from './appointments';
import { CalendarFeedParams, CalendarFreeBusyQuery, CreateCalendarEventBody, ListCalendarEventsQuery, UpdateCalendarEventBody } from './dtos';
import { CalendarEventPageView, CalendarEventView, CalendarSyncInfoView, FreeBusyView, StaffFreeBusyView } from './calendarViews';
import { isoTime } from '../../http/present';

const toDate = (v: string | undefined) => (v === undefined ? undefined : new Date(v));

/** /api/calendar: members' events, staff free/busy, the iCalendar feed and its sync information. */
export function calendarRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Booking: calendar');
  const own = 'Events belong to the member who creates them: only they list, read, edit and delete them (another member\'s id answers 404); others see their time through free-busy, without titles.';

  r.get('/api/calendar/events', { ...bookingRead, summary: 'List my calendar events', description: `${own} Events overlapping [from, to), by start. Keyset pagination: pass nextCursor back with the same filters.`, query: ListCalendarEventsQuery, response: CalendarEventPageView }, async ({ ctx, query }) =>
    CalendarEventPageView.from(await listCalendarEvents(ctx, { ...query, from: toDate(query.from), to: toDate(query.to) })),
  );

  r.post(
    '/api/calendar/events',
    {
      ...bookingRead,
      summary: 'Create a calendar event',
      description: `${own} Busy events (the default) show in free-busy and remove booking slots of the staff member linked to the owner, or of staffId (naming another staff member than one's own takes core.appointments.manage). All-day events are stretched to local midnights in the business's time zone. Times are stored in UTC.`,
      body: CreateCalendarEventBody,
      response: CalendarEventView,
      status: 201,
      errors: { 404: 'Unknown staff member' },
    },
    async ({ ctx, body }) => {
      const event = await createCalendarEvent(ctx, { ...body, startAt: new Date(body.startAt), endAt: new Date(body.endAt) });
      return created(CalendarEventView.from(event), `/api/calendar/events/${event.id}`);
    },
  );

  r.get('/api/calendar/events/:id', { ...bookingRead, summary: 'Get one of my calendar events', description: own, params: IdParams, response: CalendarEventView }, async ({ ctx, params }) => CalendarEventView.from(await getOwnEvent(ctx, params.id)));

  r.patch(
    '/api/calendar/events/:id',
    { ...bookingRead, summary: 'Edit one of my calendar events', description: `${own} Absent fields stay; null clears description, location or staffId.`, params: IdParams, body: UpdateCalendarEventBody, response: CalendarEventView, errors: { 404: 'Unknown event or staff member' } },
    async ({ ctx, params, body }) => CalendarEventView.from(await updateCalendarEvent(ctx, params.id, { ...body, startAt: toDate(body.startAt), endAt: toDate(body.endAt) })),
  );

  r.delete('/api/calendar/events/:id', { ...bookingRead, summary: 'Delete one of my calendar events', description: own, params: IdParams, status: 204 }, async ({ ctx, params }) => {
    await deleteCalendarEvent(ctx, params.id);
    return noContent();
  });

  r.get(
    '/api/calendar/free-busy',
    {
      ...bookingRead,
      summary: 'Free/busy of staff members',
      description:
        'For each staff member (staffIds, or every active one), the periods they are taken between from and to (at most 62 days, within years 1900 to 9998), each with its reason: live appointments (blocked range, buffers included), busy calendar events (on the staff member or owned by their linked member) and granted HR leave of their linked employee (whole local days, or the half before / after 13:00). Periods are clipped to the range, sorted by start, and may overlap. No titles: anyone of the organisation may read it.',
      query: CalendarFreeBusyQuery,
      response: FreeBusyView,
      errors: { 404: 'Unknown staff member' },
    },
    async ({ ctx, query }) => {
      const from = new Date(query.from);
      const to = new Date(query.to);
      const [rows, business] = await Promise.all([staffFreeBusy(ctx, { staffIds: query.staffIds, from, to }), getBusiness(ctx)]);
      return { from: isoTime(from), to: isoTime(to), timeZone: business.timeZone, staff: rows.map(StaffFreeBusyView.from) } satisfies FreeBusyView;
    },
  );

  const feedDoc = 'The feed address is a capability: `<feedId>.<secret>.ics`, the secret derived from the feed id with a server key, only its SHA-256 stored. It stops working when rotated or revoked, when the member leaves the organisation, or when the organisation loses the core module.';
  r.get(
    '/api/calendar/sync-info',
    { ...bookingRead, summary: 'My calendar synchronisation information', description: `The caller's iCalendar feed address (made on the first call; calendar apps subscribe to it) and the CalDAV details where the deployment configures a server. ${feedDoc}`, response: CalendarSyncInfoView },
    async ({ ctx }) => CalendarSyncInfoView.from(await syncInfo(ctx)),
  );
  r.post('/api/calendar/sync-info/rotate', { ...bookingRead, summary: 'Rotate my feed address', description: `The old address stops working at once; answers the new one. ${feedDoc}`, response: CalendarSyncInfoView }, async ({ ctx }) => {
    await revokeFeed(ctx);
    return CalendarSyncInfoView.from(await syncInfo(ctx));
  });
  r.delete('/api/calendar/sync-info', { ...bookingRead, summary: 'Revoke my feed address', description: `The address stops working at once; a later sync-info makes a new one. ${feedDoc}`, status: 204 }, async ({ ctx }) => {
    await revokeFeed(ctx);
    return noContent();
  });

  r.get(
    '/api/calendar/feed/:token',
    {
      access: 'public',
      summary: 'A member\'s calendar as iCalendar',
      description: `RFC 5545 (text/calendar): the member's own events and the appointments of the staff member linked to them, from 60 days ago to a year ahead; UTC times, all-day events as dates in the business's zone, stable UIDs. ${feedDoc} Unknown or revoked: 404. Rate limited per IP.`,
      params: CalendarFeedParams,
      rateLimits: [{ name: 'calendar-feed-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }],
      response: { description: 'The calendar', contentType: 'text/calendar', schema: { type: 'string' } },
    },
    async ({ params, res }) => {
      const body = await renderFeed(services, params.token);
      res.status(200).type('text/calendar; charset=utf-8').setHeader('Cache-Control', 'private, max-age=300');
      res.send(body);
    },
  );
}
