import type { Slot } from './availability';
import { serviceAvailability } from './availability';
import type { Store } from './openStore';
import { availabilityEnd } from './slots';
import { offeredService, offeredStaff } from './storeOffer';

/**
 * Free slots of an active service on the storefront, for one staff member or any, from `from` to `to` (by default
 * DEFAULT_AVAILABILITY_DAYS on).
 */
export async function storeAvailability(
  store: Store,
  props: { serviceId: string; from: Date; to?: Date; staffId?: string },
): Promise<Slot[]> {
  const service = await offeredService(store, props.serviceId);
  const staff = await offeredStaff(store, service, props.staffId);
  return serviceAvailability(store.ctx, {
    service,
    staff,
    from: props.from,
    to: availabilityEnd(props.from, props.to),
    timeZone: store.business.timeZone,
  });
}
