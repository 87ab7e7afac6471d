import type Stripe from 'stripe';
import { conflict } from '../../lib/errors';
import type { Subscription } from '../../entities/billing/subscription';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { DEFAULT_TIER } from './openSubscription';
import { selectAddons } from './selectAddons';
import { callStripe, ensurePurchasable, priceIndex, requirePayments } from './payments';
import { itemChanges } from './subscriptionItems';
import { lockSubscription, planForField, readSubscription } from './subscription';
import { endPaidSubscription, syncStripeSubscription } from './syncStripeSubscription';

export interface ChangePlanProps {
  /** The tier to move to (a public one, or the current one). */
  tier: string;
  /** Every add-on module wanted after the change; omitted keeps the current ones the new tier does not include. */
  addons?: string[];
}

/**
 * Changes the organisation's tier (and optionally its add-ons):
 *  - to the free tier: a paid Stripe subscription is cancelled at the end of its period (the paid tier stays
 *    until then, the webhook moves it to free); without one the move is immediate;
 *  - to a paid tier with a Stripe subscription: its items are re-priced through the API (prorated) and the
 *    result applied at once, the webhook confirming it later;
 *  - to a paid tier without one: 409 `checkout_required` (POST /api/checkout/session first);
 *  - paid targets need payments configured (503 `payment_provider_not_configured`) and a price id (409).
 * Asking for the current state changes nothing, except that it resumes a subscription set to cancel.
 */
export async function changePlan(ctx: TenantContext, props: ChangePlanProps): Promise<Subscription> {
  const { em, services } = ctx;
  const current = await readSubscription(ctx);
  const plan = await planForField(em, props.tier, 'tier', { publicOnly: props.tier !== current.tier });
  const addons = await selectAddons(em, plan, current, props.addons);
  const addonKeys = addons.map((a) => a.moduleKey).sort();
  const unchanged = plan.tier === current.tier && addonKeys.join() === [...current.addons].sort().join();
  if (unchanged && !current.cancelAtPeriodEnd) return current;

  let remote: Stripe.Subscription | null = null;
  if (plan.tier === DEFAULT_TIER) {
    if (current.stripeSubscriptionId) {
      const id = current.stripeSubscriptionId;
      remote = await callStripe(services, (stripe) => stripe.subscriptions.update(id, { cancel_at_period_end: true }));
    }
  } else {
    requirePayments(services);
    ensurePurchasable(plan, addons);
    const id = current.stripeSubscriptionId;
    if (!id) throw conflict('checkout_required', 'Subscribe through POST /api/checkout/session first');
    const existing = await callStripe(services, (stripe) => stripe.subscriptions.retrieve(id));
    const items = itemChanges(await priceIndex(em), existing.items.data, plan, addons);
    remote = await callStripe(services, (stripe) =>
      stripe.subscriptions.update(id, {
        items,
        cancel_at_period_end: false,
        proration_behavior: 'create_prorations',
        metadata: { tenantId: ctx.tenantId },
      }),
    );
  }

  const sub = await em.transactional(async (tx) => {
    const sub = await lockSubscription(tx, ctx.tenantId);
    const from = { tier: sub.tier, addons: sub.addons };
    if (remote) await syncStripeSubscription(tx, sub, remote, services.logger);
    else endPaidSubscription(sub);
    audit(tx, {
      action: 'billing.plan_changed',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'subscription',
      targetId: sub.id,
      data: { from, to: { tier: plan.tier, addons: addonKeys }, cancelAtPeriodEnd: sub.cancelAtPeriodEnd },
    });
    return sub;
  });
  await services.entitlements.invalidate(ctx.tenantId);
  return sub;
}
