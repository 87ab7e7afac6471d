import type Stripe from 'stripe';
import type { Em } from '../../lib/db';
import { AppError, conflict, unavailable } from '../../lib/errors';
import { stripeSdk } from '../../lib/payments';
import type { Services } from '../services';
import type { Addon } from '../../entities/billing/addon';
import type { Plan } from '../../entities/billing/plan';
import { priceHolder, pricedCatalogue } from './store';

/** The Stripe client, or 503 `payment_provider_not_configured` when STRIPE_SECRET_KEY is unset. */
export function requirePayments(services: Services): Stripe {
  if (!services.payments)
    throw unavailable(
      'payment_provider_not_configured',
      'Payments are not configured on this server (STRIPE_SECRET_KEY is unset)',
    );
  return services.payments;
}

/**
 * One call to Stripe, with its failures as problems: not configured -> 503 `payment_provider_not_configured`;
 * unreachable or rate-limited -> 503 `payment_provider_unavailable`; refused -> 502 `payment_provider_error`.
 */
export async function callStripe<T>(services: Services, call: (stripe: Stripe) => Promise<T>): Promise<T> {
  const stripe = requirePayments(services);
  try {
    return await call(stripe);
  } catch (err) {
    const { errors } = stripeSdk();
    if (!(err instanceof errors.StripeError)) throw err;
    services.logger.warn(
      { err: err.message, type: err.type, code: err.code, requestId: err.requestId },
      'Stripe call failed',
    );
    if (err instanceof errors.StripeConnectionError || err instanceof errors.StripeRateLimitError) {
      throw unavailable('payment_provider_unavailable', 'The payment provider cannot be reached; retry shortly');
    }
    throw new AppError(502, 'payment_provider_error', `The payment provider refused the request: ${err.message}`);
  }
}

/** A .catch() of Stripe calls: null for an object that does not exist (any longer) instead of an error. */
export function unlessMissing(err: unknown): null {
  if (err instanceof stripeSdk().errors.StripeInvalidRequestError && err.code === 'resource_missing') return null;
  throw err;
}

/** What a Stripe price id bills: a tier or an add-on (from plans.stripe_price_id / addons.stripe_price_id). */
export type PriceTarget = { kind: 'tier'; tier: string } | { kind: 'addon'; moduleKey: string };

export async function priceIndex(em: Em): Promise<Map<string, PriceTarget>> {
  const { plans, addons } = await pricedCatalogue(em);
  const index = new Map<string, PriceTarget>();
  for (const p of plans) index.set(p.stripePriceId!, { kind: 'tier', tier: p.tier });
  for (const a of addons) index.set(a.stripePriceId!, { kind: 'addon', moduleKey: a.moduleKey });
  return index;
}

/** Where Stripe sends the customer back (BILLING_RETURN_URL, else the front end's /billing page). */
export function returnUrl(services: Services): string {
  const { BILLING_RETURN_URL, APP_URL, PUBLIC_URL } = services.config;
  return BILLING_RETURN_URL || `${(APP_URL || PUBLIC_URL).replace(/\/$/, '')}/billing`;
}

/** 409 `stripe_price_in_use` when another tier or add-on already bills with this price (the mapping must be one to one). */
export async function ensurePriceUnused(
  em: Em,
  priceId: string,
  owner: { tier?: string; moduleKey?: string },
): Promise<void> {
  const found = await priceHolder(em, priceId, owner);
  const holder = found?.tier ? `the ${found.tier} plan` : found?.moduleKey ? `the ${found.moduleKey} add-on` : null;
  if (holder) throw conflict('stripe_price_in_use', `This Stripe price already bills ${holder}`);
}

/** 409 unless the tier and every add-on have a Stripe price to bill. */
export function ensurePurchasable(plan: Plan, addons: Addon[]): void {
  if (!plan.stripePriceId)
    throw conflict('plan_not_purchasable', `The ${plan.tier} plan has no payment provider price yet`);
  const unpriced = addons.filter((a) => !a.stripePriceId).map((a) => a.moduleKey);
  if (unpriced.length)
    throw conflict('addon_not_purchasable', `No payment provider price yet for the add-on(s): ${unpriced.join(', ')}`);
}
