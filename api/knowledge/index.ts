import type { ModuleMount } from '../http/mount';
import { aiRoutes } from './ai';
import { articleRoutes } from './articles';
import { knowledgeKeyRoutes } from './keys';
import { memberRoutes } from './member';
import { publicRoutes } from './public';
import { spaceRoutes } from './spaces';
import { integrationSurface, memberSurface } from './surface';

/**
 * Knowledge base: the member surface (/api/knowledge), its integration mirror (/api/public/knowledge, API keys),
 * the keys themselves, and the anonymous public surface (/api/knowledge/public).
 */
export function knowledgeApi(mount: ModuleMount): void {
  for (const surface of [
    memberSurface(mount.routes('Knowledge')),
    integrationSurface(mount.routes('Knowledge integration')),
  ]) {
    spaceRoutes(surface);
    articleRoutes(surface);
  }
  memberRoutes(mount);
  publicRoutes(mount);
  aiRoutes(mount);
  knowledgeKeyRoutes(mount);
}
