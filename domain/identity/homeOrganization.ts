import type { Em } from '../../lib/db';
import { Membership, Organization } from '../../entities/identity/organization';
import { UserSession } from '../../entities/identity/session';
import type { User } from '../../entities/identity/user';
import { createOrganization } from './createOrganization';

/**
 * The organisation a session opens in (login) or falls back to (refresh after leaving the active one):
 * the one the user worked in last, if still a member, else their oldest membership; organisations that are
 * not suspended come first. Someone who left every organisation gets a new personal one (added to the unit
 * of work), so a token always names an organisation the user belongs to.
 */
export async function homeOrganization(em: Em, user: User): Promise<string> {
  const memberships = await em.find(Membership, { user }, { filters: { tenant: false }, orderBy: { id: 'asc' }, fields: ['tenantId'] });
  if (!memberships.length) return createOrganization(em, { name: `${user.displayName}'s organisation`, ownerId: user.id }).id;
  const ids = memberships.map((m) => m.tenantId);
  const [active, last] = await Promise.all([
    em.find(Organization, { id: { $in: ids }, suspendedAt: null }, { fields: ['id'] }),
    em.findOne(UserSession, { user, tenantId: { $in: ids } }, { orderBy: { lastUsedAt: 'desc' }, fields: ['tenantId'] }),
  ]);
  const usable = new Set(active.map((o) => o.id));
  const candidates = usable.size ? ids.filter((id) => usable.has(id)) : ids;
  return last && candidates.includes(last.tenantId) ? last.tenantId : candidates[0];
}
