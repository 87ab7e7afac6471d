import type { ModuleMount } from '../../http/mount';
import { created, noContent } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { createCalendarEvent } from '../../../domain/core/booking/createCalendarEvent';
import { deleteCalendarEvent } from '../../../domain/core/booking/deleteCalendarEvent';
import { getOwnEvent } from '../../../domain/core/booking/getOwnEvent';
import { listCalendarEvents } from '../../../domain/core/booking/listCalendarEvents';
import { renderFeed } from '../../../domain/core/booking/renderFeed';
import { revokeFeed } from '../../../domain/core/booking/revokeFeed';
import { rotateFeed } from '../../../domain/core/booking/rotateFeed';
import { staffFreeBusy } from '../../../domain/core/booking/staffFreeBusy';
import { syncInfo } from '../../../domain/core/booking/syncInfo';
import { updateCalendarEvent } from '../../../domain/core/booking/updateCalendarEvent';
import { bookingRead } from './appointments';
import {
  CalendarFeedParams,
  CalendarFreeBusyQuery,
  CreateCalendarEventBody,
  ListCalendarEventsQuery,
  UpdateCalendarEventBody,
} from './dtos';
import {
  CalendarEventPageView,
  CalendarEventView,
  CalendarSyncInfoView,
  FreeBusyView,
  StaffFreeBusyView,
} from './calendarViews';
import { isoTime } from '../../http/present';
import {
  createEventDoc,
  feedDoc,
  freeBusyDoc,
  listEventsDoc,
  ownEventsDoc,
  revokeFeedDoc,
  rotateFeedDoc,
  syncInfoDoc,
  updateEventDoc,
} from './calendar.docs';

const toDate = (v: string | undefined) => (v === undefined ? undefined : new Date(v));

/** /api/calendar: members' events, staff free/busy, the iCalendar feed and its sync information. */
export function calendarRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Booking: calendar');

  r.get(
    '/api/calendar/events',
    {
      ...bookingRead,
      summary: 'List my calendar events',
      description: listEventsDoc,
      query: ListCalendarEventsQuery,
      response: CalendarEventPageView,
    },
    async ({ ctx, query }) => {
      const page = await listCalendarEvents(ctx, { ...query, from: toDate(query.from), to: toDate(query.to) });
      return CalendarEventPageView.from(page);
    },
  );

  r.post(
    '/api/calendar/events',
    {
      ...bookingRead,
      summary: 'Create a calendar event',
      description: createEventDoc,
      body: CreateCalendarEventBody,
      response: CalendarEventView,
      status: 201,
      errors: { 404: 'Unknown staff member' },
    },
    async ({ ctx, body }) => {
      const event = await createCalendarEvent(ctx, {
        ...body,
        startAt: new Date(body.startAt),
        endAt: new Date(body.endAt),
      });
      return created(CalendarEventView.from(event), `/api/calendar/events/${event.id}`);
    },
  );

  r.get(
    '/api/calendar/events/:id',
    {
      ...bookingRead,
      summary: 'Get one of my calendar events',
      description: ownEventsDoc,
      params: IdParams,
      response: CalendarEventView,
    },
    async ({ ctx, params }) => CalendarEventView.from(await getOwnEvent(ctx, params.id)),
  );

  r.patch(
    '/api/calendar/events/:id',
    {
      ...bookingRead,
      summary: 'Edit one of my calendar events',
      description: updateEventDoc,
      params: IdParams,
      body: UpdateCalendarEventBody,
      response: CalendarEventView,
      errors: { 404: 'Unknown event or staff member' },
    },
    async ({ ctx, params, body }) => {
      const event = await updateCalendarEvent(ctx, params.id, {
        ...body,
        startAt: toDate(body.startAt),
        endAt: toDate(body.endAt),
      });
      return CalendarEventView.from(event);
    },
  );

  r.delete(
    '/api/calendar/events/:id',
    {
      ...bookingRead,
      summary: 'Delete one of my calendar events',
      description: ownEventsDoc,
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await deleteCalendarEvent(ctx, params.id);
      return noContent();
    },
  );

  r.get(
    '/api/calendar/free-busy',
    {
      ...bookingRead,
      summary: 'Free/busy of staff members',
      description: freeBusyDoc,
      query: CalendarFreeBusyQuery,
      response: FreeBusyView,
      errors: { 404: 'Unknown staff member' },
    },
    async ({ ctx, query }) => {
      const from = new Date(query.from);
      const to = new Date(query.to);
      const found = await staffFreeBusy(ctx, { staffIds: query.staffIds, from, to });
      const staff = found.staff.map(StaffFreeBusyView.from);
      return { from: isoTime(from), to: isoTime(to), timeZone: found.timeZone, staff } satisfies FreeBusyView;
    },
  );

  r.get(
    '/api/calendar/sync-info',
    {
      ...bookingRead,
      summary: 'My calendar synchronisation information',
      description: syncInfoDoc,
      response: CalendarSyncInfoView,
    },
    async ({ ctx }) => CalendarSyncInfoView.from(await syncInfo(ctx)),
  );
  r.post(
    '/api/calendar/sync-info/rotate',
    { ...bookingRead, summary: 'Rotate my feed address', description: rotateFeedDoc, response: CalendarSyncInfoView },
    async ({ ctx }) => CalendarSyncInfoView.from(await rotateFeed(ctx)),
  );
  r.delete(
    '/api/calendar/sync-info',
    { ...bookingRead, summary: 'Revoke my feed address', description: revokeFeedDoc, status: 204 },
    async ({ ctx }) => {
      await revokeFeed(ctx);
      return noContent();
    },
  );

  r.get(
    '/api/calendar/feed/:token',
    {
      access: 'public',
      summary: "A member's calendar as iCalendar",
      description: feedDoc,
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
