import type { Appointment, BookingService, Staff } from '../../../entities/core/booking';
import type { Em } from '../../../lib/db';
import { findService, findStaff } from './store/catalogue';

/** A storefront booking with what its view shows of its service and staff member. */
export interface StoreBooking {
  appointment: Appointment;
  service: Pick<BookingService, 'name'>;
  staff: Pick<Staff, 'displayName'>;
}

/** The booking with its service and staff member (whatever their state: an old booking still shows them). */
export async function withCatalogue(em: Em, appointment: Appointment): Promise<StoreBooking> {
  const [service, staff] = await Promise.all([
    findService(em, appointment.serviceId),
    findStaff(em, appointment.staffId),
  ]);
  return { appointment, service, staff };
}
