import { conflict, notFound } from '../../lib/errors';
import { Role } from '../../entities/identity/organization';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { countPendingOffering } from './store/invitations';
import { countHolders } from './store/memberships';

export interface DeleteRoleProps {
  roleId: string;
  ip?: string | null;
}

/**
 * Deletes a custom role. System roles (owner, admin, member) stay (409 `system_role_immutable`); a role still
 * held by a member or offered by a pending invitation is refused (409 `role_in_use`) rather than silently
 * taken away from people.
 */
export async function deleteRole(ctx: TenantContext, props: DeleteRoleProps): Promise<void> {
  const { em } = ctx;
  const role = await em.findOne(Role, { id: props.roleId });
  if (!role) throw notFound('Role');
  if (role.system)
    throw conflict('system_role_immutable', `The ${role.key} role exists in every organisation and cannot be deleted`);
  const [holders, invitations] = await Promise.all([countHolders(em, role), countPendingOffering(em, role)]);
  if (holders || invitations)
    throw conflict(
      'role_in_use',
      `The role is held by ${holders} member(s) and offered by ${invitations} pending invitation(s)`,
    );
  em.remove(role);
  audit(em, {
    action: 'rbac.role_deleted',
    actorId: ctx.userId,
    tenantId: ctx.tenantId,
    targetType: 'role',
    targetId: role.id,
    ip: props.ip,
    data: { key: role.key },
  });
  await em.flush();
  await ctx.services.permissions.invalidate(ctx.tenantId);
}
