import { forbidden } from '../../lib/errors';
import type { TenantContext } from '../context';
import type { Permission } from './permissionCatalogue';

/** 403 `permission_denied` unless the acting user's roles in the context's organisation grant `permission`. */
export async function requireOrgPermission(ctx: TenantContext, permission: Permission): Promise<void> {
  const permissions = await ctx.services.permissions.of(ctx.tenantId, ctx.userId!);
  if (!permissions.has(permission))
    throw forbidden('permission_denied', `This action needs the permission ${permission}`);
}
