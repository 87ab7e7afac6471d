import type { Appointment } from '../../../entities/core/booking';
import type { TenantContext } from '../../context';
import { notify, type Note } from '../../notifications/notify';

export type AppointmentEvent =
  'appointment.booked' | 'appointment.rescheduled' | 'appointment.status_changed' | 'appointment.cancelled';

/** What the hub hears of an appointment. */
export const appointmentNote = (
  ctx: TenantContext,
  a: Appointment,
  event: AppointmentEvent,
  data: Record<string, unknown>,
): Note<'core'> => ({
  event,
  tenantId: ctx.tenantId,
  subject: { appointmentId: a.id, customerId: a.customerId ?? null },
  data: { serviceId: a.serviceId, staffId: a.staffId, startAt: a.startAt.toISOString(), status: a.status, ...data },
});

export async function notifyAppointment(
  ctx: TenantContext,
  a: Appointment,
  event: AppointmentEvent,
  data: Record<string, unknown>,
): Promise<void> {
  await notify(ctx.services, 'core', [appointmentNote(ctx, a, event, data)]);
}
