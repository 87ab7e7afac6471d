import type { ModuleMount } from '../../modules';
import { businessRoutes } from './businesses';

/** The core service's organisation part: business record, dashboards, sidebar, onboarding, media. */
export function orgApi(mount: ModuleMount): void {
  businessRoutes(mount);
}
