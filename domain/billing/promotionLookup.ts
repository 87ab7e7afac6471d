import type { Em } from '../../lib/db';
import { invalidField, notFound } from '../../lib/errors';
import type { Promotion } from '../../entities/billing/promotion';
import { normaliseCode, promotionState } from './promotionRules';
import { promotionOfCode } from './store';

/** A code as a member may see it: unknown and deactivated codes are both 404, so codes cannot be probed. */
export async function lookupPromotion(em: Em, code: string): Promise<Promotion> {
  const promo = await promotionOfCode(em, normaliseCode(code));
  if (!promo || !promo.active) throw notFound('Promotion code');
  return promo;
}

/** The promotion a checkout for `tier` may apply, or 400 on `field` saying why not. */
export async function usablePromotion(em: Em, code: string, tier: string, field = 'promoCode'): Promise<Promotion> {
  const promo = await promotionOfCode(em, normaliseCode(code));
  const state = promo ? promotionState(promo, tier) : 'inactive';
  if (!promo || state !== 'valid')
    throw invalidField(
      field,
      state === 'not_applicable'
        ? `does not apply to the ${tier} plan`
        : state === 'inactive'
          ? 'is not a valid code'
          : `is ${state}`,
    );
  return promo;
}
