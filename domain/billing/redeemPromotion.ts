import type { Em } from '../../lib/db';
import { countRedemption } from './store';

/**
 * Counts one completed checkout with the promotion (in the caller's transaction), unless it would pass
 * maxRedemptions or the checkout completed (`at`) after expiresAt: false then, and nothing is counted. The
 * Stripe coupon carries the same limits, so this only happens to a checkout opened with an older coupon (limits
 * edited since); its discount applied to the first invoice only, and the subscription stands.
 */
export async function redeemPromotion(em: Em, promotionId: string, at: Date): Promise<boolean> {
  return countRedemption(em, promotionId, at);
}
