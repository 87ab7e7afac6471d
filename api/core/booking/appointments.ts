import type { ModuleMount } from '../../http/mount';
import { created } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { cancelAppointment } from '../../../domain/core/booking/cancelAppointment';
import { createAppointment } from '../../../domain/core/booking/createAppointment';
import { getAppointment } from '../../../domain/core/booking/getAppointment';
import { listAppointments } from '../../../domain/core/booking/listAppointments';
import { updateAppointment } from '../../../domain/core/booking/updateAppointment';
import {
  bookAppointmentDoc,
  cancelAppointmentDoc,
  listAppointmentsDoc,
  updateAppointmentDoc,
} from './appointments.docs';
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
      description: listAppointmentsDoc,
      query: ListBookingAppointmentsQuery,
      response: BookingAppointmentPageView,
    },
    async ({ ctx, query }) =>
      BookingAppointmentPageView.from(
        await listAppointments(ctx, { ...query, from: toDate(query.from), to: toDate(query.to) }),
      ),
  );

  r.post(
    '/api/appointments',
    {
      ...bookingWrite,
      summary: 'Book an appointment',
      description: bookAppointmentDoc,
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

  r.get(
    '/api/appointments/:id',
    { ...bookingRead, summary: 'Get an appointment', params: IdParams, response: BookingAppointmentView },
    async ({ ctx, params }) => BookingAppointmentView.from(await getAppointment(ctx, params.id)),
  );

  r.patch(
    '/api/appointments/:id',
    {
      ...bookingWrite,
      summary: 'Reschedule an appointment or move its status',
      description: updateAppointmentDoc,
      params: IdParams,
      body: UpdateBookingAppointmentBody,
      response: BookingAppointmentView,
      errors: {
        404: 'Unknown appointment, service, staff member or customer',
        409: '`slot_taken`, `invalid_transition`',
      },
    },
    async ({ ctx, params, body }) =>
      BookingAppointmentView.from(await updateAppointment(ctx, params.id, { ...body, start: toDate(body.start) })),
  );

  r.delete(
    '/api/appointments/:id',
    {
      ...bookingWrite,
      summary: 'Cancel an appointment',
      description: cancelAppointmentDoc,
      params: IdParams,
      response: BookingAppointmentView,
      errors: { 409: '`invalid_transition`' },
    },
    async ({ ctx, params }) => BookingAppointmentView.from(await cancelAppointment(ctx, params.id)),
  );
}
