import { connectCalendar } from '../../../domain/core/booking/external/connectCalendar';
import { disconnectCalendar } from '../../../domain/core/booking/external/disconnectCalendar';
import { getConnection } from '../../../domain/core/booking/external/getConnection';
import { listConnections } from '../../../domain/core/booking/external/listConnections';
import { requestSync } from '../../../domain/core/booking/external/requestSync';
import { IdParams } from '../../http/dtos';
import type { ModuleMount } from '../../http/mount';
import { accepted, created, noContent } from '../../http/routes';
import { bookingRead } from './appointments';
import { ConnectCalendarBody } from './connectionDtos';
import { CalendarConnectionListView, CalendarConnectionView } from './connectionViews';
import { connectDoc, disconnectDoc, ownConnectionsDoc, syncDoc } from './connections.docs';

/** /api/calendar/connections: a member's external CalDAV calendars, read as busy time. */
export function connectionRoutes({ routes }: ModuleMount): void {
  const r = routes('Booking: calendar');

  r.get(
    '/api/calendar/connections',
    {
      ...bookingRead,
      summary: 'List my external calendars',
      description: ownConnectionsDoc,
      response: CalendarConnectionListView,
    },
    async ({ ctx }) => CalendarConnectionListView.from(await listConnections(ctx)),
  );

  r.post(
    '/api/calendar/connections',
    {
      ...bookingRead,
      summary: 'Connect an external calendar',
      description: connectDoc,
      body: ConnectCalendarBody,
      response: CalendarConnectionView,
      status: 201,
      errors: { 409: 'The URL is already connected', 422: 'The URL is refused by the address policy' },
    },
    async ({ ctx, body }) => {
      const state = await connectCalendar(ctx, body);
      return created(CalendarConnectionView.from(state), `/api/calendar/connections/${state.connection.id}`);
    },
  );

  r.get(
    '/api/calendar/connections/:id',
    {
      ...bookingRead,
      summary: 'Get one of my external calendars',
      description: ownConnectionsDoc,
      params: IdParams,
      response: CalendarConnectionView,
    },
    async ({ ctx, params }) => CalendarConnectionView.from(await getConnection(ctx, params.id)),
  );

  r.post(
    '/api/calendar/connections/:id/sync',
    {
      ...bookingRead,
      summary: 'Sync one of my external calendars now',
      description: syncDoc,
      params: IdParams,
      response: CalendarConnectionView,
      status: 202,
    },
    async ({ ctx, params }) => {
      await requestSync(ctx, params.id);
      return accepted(CalendarConnectionView.from(await getConnection(ctx, params.id)));
    },
  );

  r.delete(
    '/api/calendar/connections/:id',
    {
      ...bookingRead,
      summary: 'Disconnect one of my external calendars',
      description: disconnectDoc,
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await disconnectCalendar(ctx, params.id);
      return noContent();
    },
  );
}
