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
  const [modules, permissions] = await Promise.all([
    activeModules(ctx),
    ctx.services.permissions.of(ctx.tenantId, ctx.userId!),
  ]);
  return { modules, permissions };
}

/** Why the caller may not use something now, the module named first (a permission does not help while it is off); null: they may. */
export type Unavailable = 'module_not_in_use' | 'permission_missing';

export const whyUnavailable = (access: CallerAccess, item: Gated): Unavailable | null =>
  item.module !== null && !access.modules.includes(item.module)
    ? 'module_not_in_use'
    : item.permission !== null && !access.permissions.has(item.permission)
      ? 'permission_missing'
      : null;

export const mayUse = (access: CallerAccess, item: Gated): boolean => whyUnavailable(access, item) === null;
