import { conflict, forbidden, invalidField } from '../../lib/errors';
import type { Membership, Role } from '../../entities/identity/organization';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { loadGrantor, requireRolesHeld } from './grants';
import { countOwners, findMember, isOwner, lockOrganization, OWNER_ROLE } from './members';
import { rolesByKeys } from './store/roles';

export interface SetMemberRolesProps {
  /** The member whose roles are replaced. */
  userId: string;
  /** Keys of roles of the organisation; they replace the member's current roles. */
  roles: string[];
  /** Request field the keys came from, named in a 400 for an unknown key. */
  field: string;
  ip?: string | null;
}

/**
 * Replaces a member's roles. Only owners grant or revoke the owner role (403 `owner_required`), and the
 * organisation never loses its last owner (409 `last_owner`). A role granted or taken away must hold only
 * permissions the caller holds (403 `permission_escalation`, owners exempt; domain/identity/grants.ts): roles
 * the member keeps are not in question. Every check runs under a lock on the organisation, against the roles
 * as they are in the database. The member's cached permissions are dropped, so the change applies to the next
 * request.
 */
export async function setMemberRoles(ctx: TenantContext, props: SetMemberRolesProps): Promise<Membership> {
  const member = await ctx.em.transactional(async (tx) => {
    await lockOrganization(tx, ctx.tenantId);
    const target = await findMember(tx, props.userId);
    const roles = await rolesByKeys(tx, props.roles);
    const unknown = props.roles.filter((key) => !roles.some((r) => r.key === key));
    if (unknown.length)
      throw invalidField(props.field, `unknown role ${unknown.join(', ')} (not a role of this organisation)`);
    const current = target.roles.getItems();
    const grantor = await loadGrantor(tx, ctx.userId!);
    const wasOwner = isOwner(target);
    const willBeOwner = roles.some((r) => r.key === OWNER_ROLE);
    if (wasOwner !== willBeOwner) {
      if (!grantor.owner) throw forbidden('owner_required', 'Only owners can grant or revoke the owner role');
      if (wasOwner && (await countOwners(tx)) <= 1)
        throw conflict('last_owner', 'This member is the last owner; make someone else owner first');
    }
    const holds = (set: readonly Role[], role: Role) => set.some((r) => r.id === role.id);
    requireRolesHeld(
      grantor,
      roles.filter((r) => !holds(current, r)),
      'Granting',
    );
    requireRolesHeld(
      grantor,
      current.filter((r) => !holds(roles, r)),
      'Taking away',
    );
    const before = current.map((r) => r.key);
    target.roles.set(roles);
    audit(tx, {
      action: 'org.member_roles_changed',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'user',
      targetId: props.userId,
      ip: props.ip,
      data: { before, after: props.roles },
    });
    return target;
  });
  await ctx.services.permissions.invalidate(ctx.tenantId, props.userId);
  return member;
}
