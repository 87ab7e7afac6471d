import { raw } from '@mikro-orm/core';
import type { Em } from '../../lib/db';
import { badRequest, conflict, invalidField, notFound } from '../../lib/errors';
import { Plan } from '../../entities/billing/plan';
import { Promotion } from '../../entities/billing/promotion';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';

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

/** A code as a member may see it: unknown and deactivated codes are both 404, so codes cannot be probed. */
export async function lookupPromotion(em: Em, code: string): Promise<Promotion> {
  const promo = await em.findOne(Promotion, { code: normaliseCode(code) });
  if (!promo || !promo.active) throw notFound('Promotion code');
  return promo;
}

/** The promotion a checkout for `tier` may apply, or 400 on `field` saying why not. */
export async function usablePromotion(em: Em, code: string, tier: string, field = 'promoCode'): Promise<Promotion> {
  const promo = await em.findOne(Promotion, { code: normaliseCode(code) });
  const state = promo ? promotionState(promo, tier) : 'inactive';
  if (!promo || state !== 'valid') throw invalidField(field, state === 'not_applicable' ? `does not apply to the ${tier} plan` : state === 'inactive' ? 'is not a valid code' : `is ${state}`);
  return promo;
}

export async function listPromotions(em: Em, props: { limit: number; cursor?: string }): Promise<{ items: Promotion[]; nextCursor: string | null }> {
  const items = await em.find(Promotion, props.cursor ? { id: { $gt: props.cursor } } : {}, { orderBy: { id: 'asc' }, limit: props.limit + 1 });
  const page = items.slice(0, props.limit);
  return { items: page, nextCursor: items.length > props.limit ? page.at(-1)!.id : null };
}

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

function checkDiscount(props: PromotionProps): void {
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

/**
 * PUT semantics: the body is the whole promotion. An unknown id creates it (`created: true`), a known one is
 * replaced; `redemptions` is counted by the system and kept. Changing the discount, the redemption limit or
 * the expiry drops the Stripe coupon made from the old ones (coupons are immutable, and Stripe enforces their
 * limits); the next checkout creates a new one.
 */
export async function putPromotion(ctx: TenantContext, id: string, props: PromotionProps): Promise<{ promotion: Promotion; created: boolean }> {
  checkDiscount(props);
  const tiers = [...new Set(props.appliesToTiers ?? [])].sort();
  const known = tiers.length ? (await ctx.em.find(Plan, { tier: { $in: tiers } }, { fields: ['tier'] })).map((p) => p.tier) : [];
  const unknown = tiers.filter((t) => !known.includes(t));
  if (unknown.length) throw invalidField('appliesToTiers', `unknown tier(s): ${unknown.join(', ')}`);
  const code = normaliseCode(props.code);
  const taken = await ctx.em.findOne(Promotion, { code, id: { $ne: id } });
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
  audit(ctx.em, { action: created ? 'billing.promotion_created' : 'billing.promotion_updated', actorId: ctx.userId, targetType: 'promotion', targetId: id, data: { ...values } });
  await ctx.em.flush();
  return { promotion, created };
}

export async function deletePromotion(ctx: TenantContext, id: string): Promise<void> {
  const promotion = await ctx.em.findOne(Promotion, { id });
  if (!promotion) throw notFound('Promotion');
  audit(ctx.em, { action: 'billing.promotion_deleted', actorId: ctx.userId, targetType: 'promotion', targetId: id, data: { code: promotion.code } });
  ctx.em.remove(promotion);
  await ctx.em.flush();
}

/**
 * Counts one completed checkout with the promotion (in the caller's transaction), unless it would pass
 * maxRedemptions or the checkout completed (`at`) after expiresAt: false then, and nothing is counted. The
 * Stripe coupon carries the same limits, so this only happens to a checkout opened with an older coupon (limits
 * edited since); its discount applied to the first invoice only, and the subscription stands.
 */
export async function redeemPromotion(em: Em, promotionId: string, at: Date): Promise<boolean> {
  const counted = await em.nativeUpdate(
    Promotion,
    { id: promotionId, $and: [{ $or: [{ maxRedemptions: null }, { redemptions: { $lt: raw('max_redemptions') } }] }, { $or: [{ expiresAt: null }, { expiresAt: { $gt: at } }] }] },
    { redemptions: raw('redemptions + 1') },
  );
  return counted > 0;
}
