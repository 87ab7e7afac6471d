import type { ModuleMount } from '../modules';
import { knowledgeKeyRoutes } from './keys';

/** Knowledge base: its integration API keys so far (spaces, articles and the public surfaces come with the module). */
export function knowledgeApi(mount: ModuleMount): void {
  knowledgeKeyRoutes(mount);
}
