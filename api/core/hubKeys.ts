import type { ModuleMount } from '../http/mount';
import { apiKeyRoutes } from '../apikeys/keyRoutes';

/** /api/hub/keys: keys of the core integration hub (/api/public/hub). */
export function hubKeyRoutes({ routes }: ModuleMount): void {
  apiKeyRoutes(routes('Integration hub'), {
    path: '/api/hub/keys',
    module: 'core',
    permission: 'core.settings.manage',
    surface: '/api/public/hub',
  });
}
