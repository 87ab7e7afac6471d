import type Stripe from 'stripe';
import { conflict, invalidField } from '../../lib/errors';
import type { Promotion } from '../../entities/billing/promotion';
import type { Subscription } from '../../entities/billing/subscription';
import { Organization } from '../../entities/identity/organization';
import { User } from '../../entities/identity/user';
import type { TenantContext } from '../context';
import type { Services } from '../services';
import { selectAddons } from './selectAddons';
import { DEFAULT_TIER } from './openSubscription';
import { callStripe, ensurePurchasable, requirePayments, returnUrl, unlessMissing } from './payments';
import { usablePromotion } from './promotionLookup';
import { setCouponId, setCustomerIfNone } from './store';
import { lockSubscription, planForField, readSubscription } from './subscription';

/** `{CHECKOUT_SESSION_ID}` must reach Stripe verbatim (it substitutes it), so the query is appended by hand. */
const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

/** The organisation's Stripe customer, created on first use and kept on the subscription. */
async function ensureCustomer(ctx: TenantContext, sub: Subscription): Promise<string> {
  if (sub.stripeCustomerId) return sub.stripeCustomerId;
  const [org, user] = await Promise.all([
    ctx.em.findOneOrFail(Organization, { id: ctx.tenantId }),
    ctx.userId ? ctx.em.findOne(User, { id: ctx.userId }) : null,
  ]);
  // The idempotency key makes concurrent first checkouts get the same customer.
  const customer = await callStripe(ctx.services, (stripe) =>
    stripe.customers.create(
      { name: org.name, ...(user ? { email: user.email } : {}), metadata: { tenantId: ctx.tenantId } },
      { idempotencyKey: `customer.${ctx.tenantId}` },
    ),
  );
  await setCustomerIfNone(ctx.em, ctx.tenantId, customer.id);
  sub.stripeCustomerId = customer.id;
  return customer.id;
}

/** Stripe refuses a redeem_by more than five years ahead; a later expiry is then held at completion only (redeemPromotion). */
const MAX_REDEEM_BY_SECONDS = 5 * 365 * 86_400;

/**
 * The Stripe coupon of a promotion, created on its first checkout (applies to the first invoice). It carries
 * the promotion's limits, so Stripe itself refuses to complete a checkout once the code is used up or expired,
 * however many checkouts were opened with it: max_redemptions is what is left of maxRedemptions, redeem_by the
 * expiry. A coupon is immutable, so editing the discount or the limits drops it and the next checkout creates another.
 */
async function ensureCoupon(ctx: TenantContext, promo: Promotion): Promise<string> {
  if (promo.stripeCouponId) return promo.stripeCouponId;
  const discount =
    promo.percentOff != null
      ? { percent_off: promo.percentOff }
      : { amount_off: promo.amountOffCents!, currency: promo.currency!.toLowerCase() };
  const redeemBy = promo.expiresAt ? Math.floor(promo.expiresAt.getTime() / 1000) : null;
  const limits = {
    ...(promo.maxRedemptions != null ? { max_redemptions: promo.maxRedemptions - promo.redemptions } : {}),
    ...(redeemBy && redeemBy < Date.now() / 1000 + MAX_REDEEM_BY_SECONDS ? { redeem_by: redeemBy } : {}),
  };
  const coupon = await callStripe(ctx.services, (stripe) =>
    stripe.coupons.create(
      { ...discount, ...limits, duration: 'once', name: promo.code, metadata: { promotionId: promo.id } },
      { idempotencyKey: `coupon.${promo.id}.${promo.updatedAt.getTime()}.${promo.redemptions}` },
    ),
  );
  await setCouponId(ctx.em, promo.id, coupon.id);
  return coupon.id;
}

/** Expires a Checkout Session still open at Stripe; `paid` when it was completed meanwhile (its webhook is on its way). */
async function expireCheckout(services: Services, id: string): Promise<'gone' | 'paid'> {
  const session = await callStripe(services, (stripe) => stripe.checkout.sessions.retrieve(id).catch(unlessMissing));
  if (session?.status === 'open') await callStripe(services, (stripe) => stripe.checkout.sessions.expire(id));
  return session?.status === 'complete' ? 'paid' : 'gone';
}

const subscriptionExists = () =>
  conflict(
    'subscription_exists',
    'The organisation already has a paid subscription: use POST /api/subscription/change-plan or the portal',
  );

/**
 * Makes `sessionId` the organisation's one open checkout: the one it replaces is expired at Stripe, so two
 * checkouts can never both be paid (two tabs, a double click). Under the subscription row's lock, so of
 * concurrent checkouts the last recorded wins. When a subscription was linked meanwhile, or the replaced
 * checkout turns out paid, the new session is expired and the answer is 409 `subscription_exists`.
 */
async function replaceOpenCheckout(ctx: TenantContext, sessionId: string): Promise<void> {
  const { subscribed, previous } = await ctx.em.transactional(async (tx) => {
    const sub = await lockSubscription(tx, ctx.tenantId);
    if (sub.stripeSubscriptionId) return { subscribed: true, previous: null };
    const replaced = sub.stripeCheckoutSessionId;
    sub.stripeCheckoutSessionId = sessionId;
    return { subscribed: false, previous: replaced };
  });
  if (subscribed || (previous && (await expireCheckout(ctx.services, previous)) === 'paid')) {
    await callStripe(ctx.services, (stripe) => stripe.checkout.sessions.expire(sessionId));
    throw subscriptionExists();
  }
}

export interface OpenCheckoutProps {
  /** Paid public tier to subscribe to. */
  tier: string;
  /** Add-on modules bought with it. */
  addons?: string[];
  /** Promotion code applied to the first invoice. */
  promoCode?: string;
  /** hosted: a Stripe page to redirect to; embedded: a client secret for Stripe.js embedded checkout. */
  mode: 'hosted' | 'embedded';
}

export interface CheckoutSession {
  id: string;
  url: string | null;
  clientSecret: string | null;
}

/**
 * A Stripe Checkout session (mode subscription) for a tier, add-ons and an optional promotion. The tenant
 * travels as client_reference_id and in the session's and the subscription's metadata, which is how the
 * webhook finds the organisation again. The subscription changes only when Stripe reports the payment. The
 * organisation's earlier checkout still open is expired at Stripe (replaceOpenCheckout).
 */
export async function openCheckout(ctx: TenantContext, props: OpenCheckoutProps): Promise<CheckoutSession> {
  requirePayments(ctx.services);
  const sub = await readSubscription(ctx);
  if (sub.stripeSubscriptionId) throw subscriptionExists();
  if (props.tier === DEFAULT_TIER) throw invalidField('tier', 'the free plan needs no checkout');
  const plan = await planForField(ctx.em, props.tier, 'tier', { publicOnly: true });
  const addons = await selectAddons(ctx.em, plan, sub, props.addons ?? []);
  ensurePurchasable(plan, addons);
  const promo = props.promoCode ? await usablePromotion(ctx.em, props.promoCode, plan.tier) : null;

  const customer = await ensureCustomer(ctx, sub);
  const coupon = promo ? await ensureCoupon(ctx, promo) : null;
  const back = returnUrl(ctx.services);
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: 'subscription',
    customer,
    client_reference_id: ctx.tenantId,
    line_items: [plan.stripePriceId!, ...addons.map((a) => a.stripePriceId!)].map((price) => ({ price, quantity: 1 })),
    metadata: {
      tenantId: ctx.tenantId,
      tier: plan.tier,
      addons: addons.map((a) => a.moduleKey).join(','),
      ...(promo ? { promotionId: promo.id } : {}),
    },
    subscription_data: { metadata: { tenantId: ctx.tenantId } },
    ...(coupon ? { discounts: [{ coupon }] } : {}),
    ...(props.mode === 'embedded'
      ? { ui_mode: 'embedded_page', return_url: withQuery(back, 'checkout=complete&session_id={CHECKOUT_SESSION_ID}') }
      : {
          success_url: withQuery(back, 'checkout=success&session_id={CHECKOUT_SESSION_ID}'),
          cancel_url: withQuery(back, 'checkout=canceled'),
        }),
  };
  const session = await callStripe(ctx.services, (stripe) => stripe.checkout.sessions.create(params));
  await replaceOpenCheckout(ctx, session.id);
  return { id: session.id, url: session.url ?? null, clientSecret: session.client_secret ?? null };
}
