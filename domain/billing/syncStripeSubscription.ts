import type Stripe from 'stripe';
import type { Em } from '../../lib/db';
import type { Logger } from '../../lib/logger';
import type { Subscription, SubscriptionStatus } from '../../entities/billing/subscription';
import { DEFAULT_TIER } from './openSubscription';
import { priceIndex } from './payments';

export const stripeId = (ref: string | { id: string } | null | undefined): string | null =>
  ref == null ? null : typeof ref === 'string' ? ref : ref.id;

/** A subscription that will never bill again. */
export const hasEnded = (remote: Pick<Stripe.Subscription, 'status'>) =>
  remote.status === 'canceled' || remote.status === 'incomplete_expired';

/** Back to the free tier without a paid subscription (the customer is kept for a later checkout). */
export function endPaidSubscription(sub: Subscription): void {
  sub.tier = DEFAULT_TIER;
  sub.addons = [];
  sub.status = sub.status === 'trialing' ? 'trialing' : 'active';
  sub.stripeSubscriptionId = null;
  sub.currentPeriodEnd = null;
  sub.cancelAtPeriodEnd = false;
}

/**
 * Copies a Stripe subscription's state onto the organisation's subscription:
 *  - active / trialing / past_due: the tier and add-ons are read from the items' price ids (a Stripe-side
 *    trial counts as active: our own trial is separate); past_due keeps access while Stripe retries;
 *  - incomplete (first payment pending): recorded, the previous tier stays;
 *  - unpaid / paused: back to the free tier's modules, the subscription stays linked to come back later;
 *  - canceled / incomplete_expired: the paid subscription ended, back to free.
 * Our own trial keeps running on top of any of these.
 */
export async function syncStripeSubscription(
  em: Em,
  sub: Subscription,
  remote: Stripe.Subscription,
  logger: Logger,
): Promise<void> {
  sub.stripeCustomerId = stripeId(remote.customer) ?? sub.stripeCustomerId;
  if (hasEnded(remote)) return endPaidSubscription(sub);

  sub.stripeSubscriptionId = remote.id;
  sub.cancelAtPeriodEnd = remote.cancel_at_period_end;
  const periodEnds = remote.items.data.map((i) => i.current_period_end).filter((t) => typeof t === 'number');
  sub.currentPeriodEnd = periodEnds.length ? new Date(Math.max(...periodEnds) * 1000) : null;
  const keepTrial = (status: SubscriptionStatus): SubscriptionStatus =>
    sub.status === 'trialing' && status === 'active' ? 'trialing' : status;

  switch (remote.status) {
    case 'active':
    case 'trialing':
    case 'past_due': {
      const index = await priceIndex(em);
      const targets = remote.items.data.map((i) => index.get(i.price.id));
      const tier = targets.find((t) => t?.kind === 'tier');
      if (tier?.kind === 'tier') sub.tier = tier.tier;
      else
        logger.warn(
          { subscription: remote.id, prices: remote.items.data.map((i) => i.price.id) },
          'Stripe subscription has no price of a known tier; tier left unchanged',
        );
      sub.addons = [...new Set(targets.flatMap((t) => (t?.kind === 'addon' ? [t.moduleKey] : [])))].sort();
      sub.status = keepTrial(remote.status === 'past_due' ? 'past_due' : 'active');
      return;
    }
    case 'incomplete':
      sub.status = 'incomplete';
      return;
    case 'unpaid':
    case 'paused':
      sub.tier = DEFAULT_TIER;
      sub.addons = [];
      sub.status = remote.status === 'unpaid' ? 'unpaid' : 'paused';
      return;
    default:
      logger.warn(
        { subscription: remote.id, status: remote.status },
        'unknown Stripe subscription status; state left unchanged',
      );
  }
}
