import type { BookingService, ServiceGroup, Staff } from '../../../entities/core/booking';
import type { Store } from './openStore';
import { activeCatalogue } from './store/catalogue';

/** What the storefront shows: active services (with their groups) and active staff. */
export const storeCatalogue = (
  store: Store,
): Promise<{ services: BookingService[]; groups: ServiceGroup[]; staff: Staff[] }> => activeCatalogue(store.ctx.em);
