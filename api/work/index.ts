import type { ModuleMount } from '../http/mount';
import { chatRoutes } from './chat';
import { deliveryRoutes } from './deliveries';
import { githubRoutes } from './github';
import { workItemRoutes } from './items';

/** Work items with their GitHub webhook, chat channels with their integrations (gated by `core`), and /admin/deliveries. */
export function workApi(mount: ModuleMount): void {
  workItemRoutes(mount);
  githubRoutes(mount);
  chatRoutes(mount);
  deliveryRoutes(mount);
}
