import { conflict, notFound } from '../../lib/errors';
import { Role } from '../../entities/identity/organization';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { loadGrantor, requireRoleChangeHeld } from './grants';
import { lockOrganization, OWNER_ROLE } from './members';
import type { Permission } from './permissionCatalogue';

export interface SetRolePermissionsProps {
  roleId: string;
  /** The role's whole new set of permission keys. */
  permissions: Permission[];
  ip?: string | null;
}

/**
 * Replaces the permissions of a role. The owner role always holds everything (409 `system_role_immutable`);
 * admin and member may be tuned. Every permission added or removed must be one the caller holds, and a role
 * the caller holds can only lose permissions (403 `permission_escalation`, owners exempt;
 * domain/identity/grants.ts). Runs under the organisation's lock, like changes of members' roles, so the
 * caller's roles and the role's permissions checked are the ones replaced. Every member's cached permissions
 * in the organisation are dropped.
 */
export async function setRolePermissions(ctx: TenantContext, props: SetRolePermissionsProps): Promise<Role> {
  const role = await ctx.em.transactional(async (tx) => {
    await lockOrganization(tx, ctx.tenantId);
    const role = await tx.findOne(Role, { id: props.roleId });
    if (!role) throw notFound('Role');
    if (role.key === OWNER_ROLE)
      throw conflict('system_role_immutable', 'The owner role always holds every permission');
    const next = [...new Set(props.permissions)];
    requireRoleChangeHeld(await loadGrantor(tx, ctx.userId!), role, next);
    const before = role.permissions;
    role.permissions = next;
    audit(tx, {
      action: 'rbac.role_permissions_changed',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'role',
      targetId: role.id,
      ip: props.ip,
      data: { key: role.key, before, after: role.permissions },
    });
    return role;
  });
  await ctx.services.permissions.invalidate(ctx.tenantId);
  return role;
}
