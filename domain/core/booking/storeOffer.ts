import type { BookingService, Staff } from '../../../entities/core/booking';
import { notFound } from '../../../lib/errors';
import { checkInstantRange } from '../../../lib/calendar';
import type { Lean } from '../../../lib/lean';
import { serviceAvailability, type Slot, type SlotService, type SlotStaff } from './availability';
import { slotTaken } from './doubleBooking';
import type { Store } from './openStore';
import { activeService, activeStaffFor, findStaff } from './store/catalogue';

/** What the storefront offers: active services, the active staff who perform them, the free slots of both. */

/** An active service of the store; 404 otherwise. */
export const offeredService = (store: Store, serviceId: string): Promise<Lean<BookingService>> =>
  activeService(store.ctx, serviceId);

/** The staff who may take a service: the one named (404 unless active and performing it), or every such one. */
export async function offeredStaff(
  store: Store,
  service: Pick<BookingService, 'id'>,
  staffId?: string,
): Promise<(Lean<Staff> | Staff)[]> {
  if (!staffId) return activeStaffFor(store.ctx, service.id);
  const staff = await findStaff(store.ctx.em, staffId);
  if (!staff.active || (staff.serviceIds.length && !staff.serviceIds.includes(service.id)))
    throw notFound('Staff member');
  return [staff];
}

/** The free slot starting exactly at `start` (its free staff), or 409 `slot_taken`. */
export async function freeSlotAt(
  store: Store,
  service: SlotService,
  staff: SlotStaff[],
  start: Date,
  ignoreAppointmentId?: string,
): Promise<Slot> {
  const end = new Date(start.getTime() + service.durationMinutes * 60_000);
  checkInstantRange({ from: start, to: end }, { from: 'start', to: 'start' });
  // The same computation as the availability route (whose grid does not depend on `from`).
  const slots = await serviceAvailability(store.ctx, {
    service,
    staff,
    from: start,
    to: end,
    ignoreAppointmentId,
    timeZone: store.business.timeZone,
  });
  const slot = slots.find((s) => s.start.getTime() === start.getTime());
  if (!slot) throw slotTaken();
  return slot;
}
