import type { ModuleMount } from '../http/mount';
import { apiKeyRoutes } from '../apikeys/keyRoutes';

/** /api/knowledge/keys: keys of the knowledge integration surface (/api/public/knowledge). */
export function knowledgeKeyRoutes({ routes }: ModuleMount): void {
  apiKeyRoutes(routes('Knowledge API keys'), {
    path: '/api/knowledge/keys',
    module: 'knowledge',
    permission: 'knowledge.keys.manage',
    surface: '/api/public/knowledge',
  });
}
