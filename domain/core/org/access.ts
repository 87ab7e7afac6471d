import type { Permission } from '../../identity/permissionCatalogue';
import type { TenantContext } from '../../context';
import { activeModules } from './activeModules';
import type { BusinessModule } from './activeModules';

/** What the caller may see in the workspace: the organisation's active modules and the caller's permissions. */
export interface CallerAccess {
  modules: string[];
  permissions: ReadonlySet<string>;
}

/** Something shown only with a module in use and, when set, a permission (sidebar entries, widgets, summary figures). */
export interface Gated {
  /** null: not tied to a module (organisation settings, billing). */
  module: BusinessModule | null;
  permission: Permission | null;
}

export async function callerAccess(ctx: TenantContext): Promise<CallerAccess> {
  const [modules, permissions] = await Promise.all([activeModules(ctx), ctx.services.permissions.of(ctx.tenantId, ctx.userId!)]);
  return { modules, permissions };
}

export const mayUse = (access: CallerAccess, item: Gated): boolean =>
  (item.module === null || access.modules.includes(item.module)) && (item.permission === null || access.permissions.has(item.permission));
