import type { Em } from '../../lib/db';
import { Subscription } from '../../entities/billing/subscription';

export const DEFAULT_TIER = 'free';

/** Every organisation starts with one subscription on the free tier (added to the caller's unit of work). */
export function openSubscription(em: Em, tenantId: string): Subscription {
  return em.create(Subscription, { tenantId, tier: DEFAULT_TIER });
}
