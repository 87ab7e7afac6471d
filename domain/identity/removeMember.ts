import { conflict, forbidden } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { loadGrantor, requireRolesHeld } from './grants';
import { requireOrgPermission } from './requireOrgPermission';
import { countOwners, findMember, isOwner, lockOrganization } from './members';
import { dropMembership } from './dropMembership';
import { revokeMemberAccess } from './revokeMemberAccess';

export interface RemoveMemberProps {
  /** The member to remove; the caller themselves means leaving (no permission needed). */
  userId: string;
  ip?: string | null;
}

/**
 * Removes a member (org.members.manage; only owners remove owners) or lets the caller leave. Removing someone
 * takes their roles away, so it follows the escalation rule (domain/identity/grants.ts): every permission of
 * their roles must be held by the caller (403 `permission_escalation`, owners exempt). The last owner
 * can do neither (409 `last_owner`). Their tokens for this organisation are revoked on every instance at
 * once and their cached permissions dropped; a refresh moves their sessions to another organisation. Their app
 * passwords for it are revoked with the removal (the next DAV request is refused; rejoining does not revive them).
 */
export async function removeMember(ctx: TenantContext, props: RemoveMemberProps): Promise<void> {
  const leaving = props.userId === ctx.userId;
  if (!leaving) await requireOrgPermission(ctx, 'org.members.manage');
  await ctx.em.transactional(async (tx) => {
    await lockOrganization(tx, ctx.tenantId);
    const member = await findMember(tx, props.userId);
    const grantor = leaving ? null : await loadGrantor(tx, ctx.userId!);
    if (isOwner(member)) {
      if (grantor && !grantor.owner) throw forbidden('owner_required', 'Only owners can remove an owner');
      if ((await countOwners(tx)) <= 1)
        throw conflict('last_owner', 'The last owner cannot leave; make someone else owner first');
    }
    if (grantor) requireRolesHeld(grantor, member.roles.getItems(), 'Removing a member with');
    await dropMembership(tx, ctx.tenantId, member, props.userId);
    audit(tx, {
      action: leaving ? 'org.member_left' : 'org.member_removed',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'user',
      targetId: props.userId,
      ip: props.ip,
    });
  });
  await revokeMemberAccess(ctx.services, ctx.tenantId, props.userId);
}
