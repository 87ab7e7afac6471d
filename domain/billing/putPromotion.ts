import { conflict, invalidField } from '../../lib/errors';
import { Promotion } from '../../entities/billing/promotion';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { checkDiscount, normaliseCode } from './promotionRules';
import { existingTiers, otherPromotionWithCode } from './store';

export interface PromotionProps {
  code: string;
  /** 1 to 100; exclusive with amountOffCents. */
  percentOff?: number | null;
  /** Fixed discount in cents of `currency`; exclusive with percentOff. */
  amountOffCents?: number | null;
  currency?: string | null;
  expiresAt?: Date | null;
  maxRedemptions?: number | null;
  active?: boolean;
  /** Tiers the code applies to; empty or omitted: every tier. */
  appliesToTiers?: string[];
}

/**
 * PUT semantics: the body is the whole promotion. An unknown id creates it (`created: true`), a known one is
 * replaced; `redemptions` is counted by the system and kept. Changing the discount, the redemption limit or
 * the expiry drops the Stripe coupon made from the old ones (coupons are immutable, and Stripe enforces their
 * limits); the next checkout creates a new one.
 */
export async function putPromotion(
  ctx: TenantContext,
  id: string,
  props: PromotionProps,
): Promise<{ promotion: Promotion; created: boolean }> {
  checkDiscount(props);
  const tiers = [...new Set(props.appliesToTiers ?? [])].sort();
  const known = await existingTiers(ctx.em, tiers);
  const unknown = tiers.filter((t) => !known.includes(t));
  if (unknown.length) throw invalidField('appliesToTiers', `unknown tier(s): ${unknown.join(', ')}`);
  const code = normaliseCode(props.code);
  const taken = await otherPromotionWithCode(ctx.em, code, id);
  if (taken) throw conflict('promotion_code_taken', `Another promotion already uses the code ${code}`);
  const values = {
    code,
    percentOff: props.percentOff ?? null,
    amountOffCents: props.amountOffCents ?? null,
    currency: props.currency?.toUpperCase() ?? null,
    expiresAt: props.expiresAt ?? null,
    maxRedemptions: props.maxRedemptions ?? null,
    active: props.active ?? true,
    appliesToTiers: tiers,
  };
  let promotion = await ctx.em.findOne(Promotion, { id });
  const created = !promotion;
  if (!promotion) {
    promotion = ctx.em.create(Promotion, { id, ...values });
  } else {
    const couponChanged =
      promotion.percentOff !== values.percentOff ||
      promotion.amountOffCents !== values.amountOffCents ||
      promotion.currency !== values.currency ||
      promotion.maxRedemptions !== values.maxRedemptions ||
      promotion.expiresAt?.getTime() !== values.expiresAt?.getTime();
    ctx.em.assign(promotion, { ...values, ...(couponChanged ? { stripeCouponId: null } : {}) });
  }
  audit(ctx.em, {
    action: created ? 'billing.promotion_created' : 'billing.promotion_updated',
    actorId: ctx.userId,
    targetType: 'promotion',
    targetId: id,
    data: { ...values },
  });
  await ctx.em.flush();
  return { promotion, created };
}
