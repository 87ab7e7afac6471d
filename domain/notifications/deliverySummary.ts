import type { Services } from '../services';
import { deliveryCountsSince, type DeliveryCount } from './store';

/** Deliveries of the last `hours` by direction, source and status (stripe events included). */
export async function deliverySummary(services: Services, hours: number): Promise<DeliveryCount[]> {
  return deliveryCountsSince(services, hours);
}
