import type { ModuleMount } from '../http/mount';
import { created } from '../http/routes';
import { IdParams } from '../http/dtos';
import { dateFilters } from '../vr/filters';
import { withTrails } from '../../domain/hr/clockTrails';
import { correctClockEvent } from '../../domain/hr/correctClockEvent';
import { listClockEvents } from '../../domain/hr/listClockEvents';
import { recordClockEvent } from '../../domain/hr/recordClockEvent';
import { ClockEventBody, CorrectionBody, ListClockEventsQuery } from './dtos';
import { ClockEventPageView, ClockEventView } from './clockViews';
import { correctClockEventDocs, listClockEventsDocs, punchDocs } from './clock.docs';

/** Clock events (immutable punches) and their corrections. */
export function clockRoutes({ routes }: ModuleMount): void {
  const r = routes('HR clock');
  const gate = { access: 'user', module: 'rh' } as const;

  r.post(
    '/api/rh/clock-events',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'Clock in or out',
      description: punchDocs,
      body: ClockEventBody,
      response: ClockEventView,
      status: 201,
      errors: { 403: '`no_employee_record`, `own_clock_event`', 404: 'Unknown employeeId' },
    },
    async ({ ctx, body }) => {
      const event = await recordClockEvent(ctx, body);
      return created(ClockEventView.from({ event, corrections: [] }));
    },
  );

  r.get(
    '/api/rh/clock-events',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'List clock events with their corrections',
      description: listClockEventsDocs,
      query: ListClockEventsQuery,
      response: ClockEventPageView,
      errors: { 403: '`no_employee_record`', 404: "Another employee's punches asked without hr.employees.manage" },
    },
    async ({ ctx, query }) => ClockEventPageView.from(await listClockEvents(ctx, { ...query, ...dateFilters(query) })),
  );

  r.post(
    '/api/rh/clock-events/:id/corrections',
    {
      ...gate,
      permission: 'hr.employees.manage',
      summary: 'Correct a clock event',
      description: correctClockEventDocs,
      params: IdParams,
      body: CorrectionBody,
      response: ClockEventView,
      status: 201,
      errors: { 403: '`own_clock_event`' },
    },
    async ({ ctx, params, body }) => {
      const { event } = await correctClockEvent(ctx, params.id, body);
      const [withTrail] = await withTrails(ctx, [event]);
      return created(ClockEventView.from(withTrail));
    },
  );
}
