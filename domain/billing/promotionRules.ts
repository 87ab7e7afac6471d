import { badRequest, invalidField } from '../../lib/errors';
import type { Promotion } from '../../entities/billing/promotion';

/** Codes are compared case-insensitively: stored and looked up upper-cased. */
export const normaliseCode = (code: string) => code.trim().toUpperCase();

export type PromotionState = 'valid' | 'inactive' | 'expired' | 'exhausted' | 'not_applicable';

/** Whether the code can be used now (for `tier`, when given), and if not why. */
export function promotionState(promo: Promotion, tier?: string, now = new Date()): PromotionState {
  if (!promo.active) return 'inactive';
  if (promo.expiresAt && promo.expiresAt <= now) return 'expired';
  if (promo.maxRedemptions != null && promo.redemptions >= promo.maxRedemptions) return 'exhausted';
  if (tier && promo.appliesToTiers.length && !promo.appliesToTiers.includes(tier)) return 'not_applicable';
  return 'valid';
}

/** A promotion gives exactly one of percentOff or amountOffCents, the currency with (and only with) the amount (400). */
export function checkDiscount(props: {
  percentOff?: number | null;
  amountOffCents?: number | null;
  currency?: string | null;
}): void {
  const percent = props.percentOff != null;
  const amount = props.amountOffCents != null;
  if (percent === amount) {
    throw badRequest('validation_failed', 'The request body is invalid', [
      { field: 'percentOff', message: 'give either percentOff or amountOffCents' },
      { field: 'amountOffCents', message: 'give either percentOff or amountOffCents' },
    ]);
  }
  if (amount && !props.currency) throw invalidField('currency', 'is required with amountOffCents');
  if (percent && props.currency) throw invalidField('currency', 'only goes with amountOffCents');
}
