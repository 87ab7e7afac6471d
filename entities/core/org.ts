import { Asset } from './asset';
import { Business } from './business';
import { Dashboard, DashboardWidget } from './dashboard';
import { OnboardingDismissal } from './onboarding';
import { SidebarPreference, SidebarRoleDefault } from './sidebar';

/** Entities of the core service's organisation part, registered in entities/index.ts. */
export const coreOrgEntities = [
  Business,
  Dashboard,
  DashboardWidget,
  SidebarPreference,
  SidebarRoleDefault,
  OnboardingDismissal,
  Asset,
];
