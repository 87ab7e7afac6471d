import type { ModuleMount } from '../../http/mount';
import { created } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { cancelAppointment, createAppointment, getAppointment, listAppointments, updateAppointment } from '../../../domain/core/booking/appointments';
import { CreateBookingAppointmentBody, ListBookingAppointmentsQuery, UpdateBookingAppointmentBody } from './dtos';
import { BookingAppointmentPageView, BookingAppointmentView } from './views';

export const bookingRead = { access: 'user', module: 'core' } as const;
export const bookingWrite = { ...bookingRead, permission: 'core.appointments.manage' } as const;

const toDate = (v: string | undefined) => (v === undefined ? undefined : new Date(v));

/** /api/appointments: appointments of services with staff members. */
export function appointmentRoutes({ routes }: ModuleMount): void {
  const r = routes('Booking: appointments');

  r.get(
    '/api/appointments',
    {
      ...bookingRead,
      summary: 'List appointments',
      description: 'Ordered by start time. Filters combine: from (start at or after), to (start before), staffId, customerId, status (comma-separated). Keyset pagination: pass nextCursor back with the same filters.',
      query: ListBookingAppointmentsQuery,
      response: BookingAppointmentPageView,
    },
    async ({ ctx, query }) => BookingAppointmentPageView.from(await listAppointments(ctx, { ...query, from: toDate(query.from), to: toDate(query.to) })),
  );

  r.post(
    '/api/appointments',
    {
      ...bookingWrite,
      summary: 'Book an appointment',
      description:
        'Members may book at any time (working hours are the storefront\'s rule). The end and the blocked range follow from the service (duration, buffers). customerId names an existing customer; otherwise attendee\'s e-mail finds the customer with that primary e-mail or creates one. Overlapping blocked ranges of one staff member are refused by a PostgreSQL exclusion constraint: 409 `slot_taken`, whatever the concurrency.',
      body: CreateBookingAppointmentBody,
      response: BookingAppointmentView,
      status: 201,
      errors: { 404: 'Unknown service, staff member or customer', 409: '`slot_taken`' },
    },
    async ({ ctx, body }) => {
      const a = await createAppointment(ctx, { ...body, start: new Date(body.start) });
      return created(BookingAppointmentView.from(a), `/api/appointments/${a.id}`);
    },
  );

  r.get('/api/appointments/:id', { ...bookingRead, summary: 'Get an appointment', params: IdParams, response: BookingAppointmentView }, async ({ ctx, params }) =>
    BookingAppointmentView.from(await getAppointment(ctx, params.id)),
  );

  r.patch(
    '/api/appointments/:id',
    {
      ...bookingWrite,
      summary: 'Reschedule an appointment or move its status',
      description:
        'start, staffId or serviceId reschedule a booked or confirmed appointment (the blocked range is recomputed; 409 `slot_taken` on overlap). The result follows the booking rules: 400 when the staff member does not perform the service or partySize exceeds its capacity. Status moves: booked -> confirmed | cancelled; confirmed -> completed | no_show | cancelled; cancelled, completed and no_show are final. Any other move: 409 `invalid_transition`.',
      params: IdParams,
      body: UpdateBookingAppointmentBody,
      response: BookingAppointmentView,
      errors: { 404: 'Unknown appointment, service, staff member or customer', 409: '`slot_taken`, `invalid_transition`' },
    },
    async ({ ctx, params, body }) => BookingAppointmentView.from(await updateAppointment(ctx, params.id, { ...body, start: toDate(body.start) })),
  );

  r.delete(
    '/api/appointments/:id',
    {
      ...bookingWrite,
      summary: 'Cancel an appointment',
      description: 'The appointment is kept with status cancelled (its time becomes free); answers it. Cancelling a cancelled one changes nothing; a completed or no-show one: 409 `invalid_transition`.',
      params: IdParams,
      response: BookingAppointmentView,
      errors: { 409: '`invalid_transition`' },
    },
    async ({ ctx, params }) => BookingAppointmentView.from(await cancelAppointment(ctx, params.id)),
  );
}
