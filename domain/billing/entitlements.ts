import type { Em } from '../../lib/db';
import type { Entitlements } from '../../lib/entitlementCache';
import { Organization } from '../../entities/identity/organization';
import { resolveEntitlements } from './entitlementRules';
import { anySubscriptionOf, planOfTier } from './store';

/**
 * The effective entitlements of an organisation (resolveEntitlements). This is the loader behind the edge's
 * requireModule (through the Redis cache). A running trial makes the result valid only until the trial's end,
 * which the cache honours to the millisecond.
 */
export async function loadEntitlements(em: Em, tenantId: string, now = new Date()): Promise<Entitlements> {
  const [org, sub] = await Promise.all([em.findOne(Organization, { id: tenantId }), anySubscriptionOf(em, tenantId)]);
  const plan = sub ? await planOfTier(em, sub.tier) : null;
  return resolveEntitlements(tenantId, { org, sub, plan }, now);
}
