import { conflict, notFound } from '../../lib/errors';
import { Role } from '../../entities/identity/organization';
import type { TenantContext } from '../context';
import { audit } from './audit';
import { OWNER_ROLE } from './members';
import type { Permission } from './permissionCatalogue';

export interface SetRolePermissionsProps {
  roleId: string;
  /** The role's whole new set of permission keys. */
  permissions: Permission[];
  ip?: string | null;
}

/**
 * Replaces the permissions of a role. The owner role always holds everything (409 `system_role_immutable`);
 * admin and member may be tuned. Every member's cached permissions in the organisation are dropped.
 */
export async function setRolePermissions(ctx: TenantContext, props: SetRolePermissionsProps): Promise<Role> {
  const { em } = ctx;
  const role = await em.findOne(Role, { id: props.roleId });
  if (!role) throw notFound('Role');
  if (role.key === OWNER_ROLE) throw conflict('system_role_immutable', 'The owner role always holds every permission');
  const before = role.permissions;
  role.permissions = [...new Set(props.permissions)];
  audit(em, { action: 'rbac.role_permissions_changed', actorId: ctx.userId, tenantId: ctx.tenantId, targetType: 'role', targetId: role.id, ip: props.ip, data: { key: role.key, before, after: role.permissions } });
  await em.flush();
  await ctx.services.permissions.invalidate(ctx.tenantId);
  return role;
}
