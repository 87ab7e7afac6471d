import type { ModuleMount } from '../http/mount';
import { deliveryRoutes } from './deliveries';
import { endpointRoutes } from './endpoints';

/** Customers' webhooks (docs/webhooks.md): endpoints, the delivery log, replays. Open to every organisation. */
export function webhooksApi(mount: ModuleMount): void {
  endpointRoutes(mount);
  deliveryRoutes(mount);
}
