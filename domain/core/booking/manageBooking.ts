import type { Appointment } from '../../../entities/core/booking';
import { invalidField, notFound } from '../../../lib/errors';
import { hashToken } from '../../../lib/tokens';
import { checkOpenToVisitor } from './appointmentRules';
import type { Store } from './openStore';
import { appointmentByTokenHash } from './store/appointments';
import { withCatalogue, type StoreBooking } from './storeBooking';
import { freeSlotAt, offeredService, offeredStaff } from './storeOffer';
import { updateAppointment } from './updateAppointment';

/** A visitor's booking through its manage link: the token is the capability (see it, cancel it, reschedule it). */

/** The booking a manage token names at this store; 404 for any other token. */
async function bookingByToken(store: Store, token: string): Promise<Appointment> {
  const found = await appointmentByTokenHash(store.ctx.em, hashToken(token));
  if (!found) throw notFound('Booking');
  return found;
}

/** The booking a manage token names, with its service and staff member. */
export async function viewBooking(store: Store, token: string): Promise<StoreBooking> {
  return withCatalogue(store.ctx.em, await bookingByToken(store, token));
}

/** The visitor cancels through the manage link while it is open to them (again: no change). */
export async function cancelByToken(store: Store, token: string): Promise<StoreBooking> {
  const appointment = await bookingByToken(store, token);
  if (appointment.status === 'cancelled') return withCatalogue(store.ctx.em, appointment);
  checkOpenToVisitor(appointment);
  return withCatalogue(store.ctx.em, await updateAppointment(store.ctx, appointment.id, { status: 'cancelled' }));
}

/**
 * The visitor moves the booking to another free slot of the same staff member and service, both still bookable
 * as for a new booking (an inactive service or staff member: 404).
 */
export async function rescheduleByToken(store: Store, token: string, start: Date): Promise<StoreBooking> {
  const appointment = await bookingByToken(store, token);
  checkOpenToVisitor(appointment);
  const service = await offeredService(store, appointment.serviceId);
  const [staff] = await offeredStaff(store, service, appointment.staffId);
  if (start.getTime() <= Date.now()) throw invalidField('start', 'must be in the future');
  await freeSlotAt(store, service, [staff], start, appointment.id);
  return { appointment: await updateAppointment(store.ctx, appointment.id, { start }), service, staff };
}
