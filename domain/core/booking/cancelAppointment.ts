import type { Appointment } from '../../../entities/core/booking';
import type { TenantContext } from '../../context';
import { findAppointment } from './store/appointments';
import { updateAppointment } from './updateAppointment';

/** DELETE: the appointment becomes cancelled (kept for history); cancelling a cancelled one changes nothing. */
export async function cancelAppointment(ctx: TenantContext, id: string): Promise<Appointment> {
  const appointment = await findAppointment(ctx.em, id);
  if (appointment.status === 'cancelled') return appointment;
  return updateAppointment(ctx, id, { status: 'cancelled' });
}
