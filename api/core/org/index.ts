import type { ModuleMount } from '../../http/mount';
import { assetRoutes } from './assets';
import { businessRoutes } from './businesses';
import { dashboardRoutes } from './dashboards';
import { onboardingRoutes } from './onboarding';
import { sidebarRoutes } from './sidebar';

/** The core service's organisation part: business record, dashboards, sidebar, onboarding, media. */
export function orgApi(mount: ModuleMount): void {
  businessRoutes(mount);
  dashboardRoutes(mount);
  sidebarRoutes(mount);
  onboardingRoutes(mount);
  assetRoutes(mount);
}
