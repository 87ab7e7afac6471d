import type { ModuleMount } from '../modules';
import { chatRoutes } from './chat';
import { githubRoutes } from './github';
import { workItemRoutes } from './items';

/** Work items with their GitHub webhook, chat channels with their integrations (all gated by `core`). */
export function workApi(mount: ModuleMount): void {
  workItemRoutes(mount);
  githubRoutes(mount);
  chatRoutes(mount);
}
