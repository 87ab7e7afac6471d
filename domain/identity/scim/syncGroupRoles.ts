import type { Em } from '../../../lib/db';
import { Membership } from '../../../entities/identity/organization';
import { audit } from '../../platform/audit';
import { OWNER_ROLE } from '../members';
import { rolesByKeys } from '../store/roles';
import { mappedRolesOf } from '../store/scimGroups';
import { PROVISIONED_ROLE } from './changeScimMembership';
import { groupRoles } from './scimGroupState';

/**
 * Gives these accounts, where they are members, the roles their mapped SCIM groups grant (groupRoles), in the
 * caller's transaction (holding the organisation's lock): called for the accounts whose mapped groups changed.
 * Each change is audited `scim.member_roles_changed`; answers the accounts whose roles changed, whose cached
 * permissions the caller drops after the commit (the next request of theirs sees the new roles).
 */
export async function syncGroupRoles(
  tx: Em,
  tenantId: string,
  userIds: string[],
  via: Record<string, unknown>,
): Promise<string[]> {
  if (!userIds.length) return [];
  const mapped = await mappedRolesOf(tx, tenantId, userIds);
  const members = await tx.find(Membership, { user: { $in: userIds } }, { populate: ['roles'] });
  const keys = new Set([PROVISIONED_ROLE, OWNER_ROLE, ...[...mapped.values()].flat()]);
  const roles = await rolesByKeys(tx, [...keys]);
  const known = new Set(roles.map((r) => r.key));
  const changed: string[] = [];
  for (const member of members) {
    const userId = typeof member.user === 'string' ? member.user : member.user.id;
    const current = member.roles
      .getItems()
      .map((r) => r.key)
      .sort();
    // A mapping to a role deleted since grants nothing.
    const granted = (mapped.get(userId) ?? []).filter((k) => known.has(k));
    const next = groupRoles(granted, current, PROVISIONED_ROLE, OWNER_ROLE);
    if (next.join() === current.join()) continue;
    member.roles.set(roles.filter((r) => next.includes(r.key)));
    audit(tx, {
      action: 'scim.member_roles_changed',
      tenantId,
      targetType: 'user',
      targetId: userId,
      data: { ...via, before: current, after: next },
    });
    changed.push(userId);
  }
  return changed;
}
