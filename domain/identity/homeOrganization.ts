import type { Em } from '../../lib/db';
import type { User } from '../../entities/identity/user';
import { createOrganization } from './createOrganization';
import { membershipTenants, unsuspended } from './store/memberships';
import { lastUsedSessionIn } from './store/sessions';

/**
 * The organisation a session opens in (login) or falls back to (refresh after leaving the active one):
 * the one the user worked in last, if still a member, else their oldest membership; organisations that are
 * not suspended come first. Someone who left every organisation gets a new personal one (added to the unit
 * of work), so a token always names an organisation the user belongs to.
 */
export async function homeOrganization(em: Em, user: User): Promise<string> {
  const ids = await membershipTenants(em, user);
  if (!ids.length) return createOrganization(em, { name: `${user.displayName}'s organisation`, ownerId: user.id }).id;
  const [active, last] = await Promise.all([unsuspended(em, ids), lastUsedSessionIn(em, user, ids)]);
  const usable = new Set(active);
  const candidates = usable.size ? ids.filter((id) => usable.has(id)) : ids;
  return last && candidates.includes(last.tenantId) ? last.tenantId : candidates[0];
}
