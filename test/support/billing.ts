import type { Job } from 'bullmq';
import { Addon } from '../../entities/billing/addon';
import { Plan } from '../../entities/billing/plan';
import { StripeEvent } from '../../entities/billing/stripeEvent';
import { Subscription } from '../../entities/billing/subscription';
import type { QueueDefinition } from '../../queues/define';
import { signedDelivery } from './fakeStripe';
import type { TestStack } from './stack';
import { eventually } from './wait';

export const WEBHOOK_SECRET = 'whsec_test_billing_secret';

/** Stripe price ids of the seeded catalogue, as a test links them. */
export const prices = {
  starter: 'price_starter',
  pro: 'price_pro',
  business: 'price_business',
  vr: 'price_addon_vr',
  rh: 'price_addon_rh',
} as const;

/** Links the paid tiers and the add-ons to Stripe prices (what an administrator does once). */
export async function linkPrices(stack: TestStack): Promise<void> {
  const em = stack.services.orm.em.fork();
  for (const tier of ['starter', 'pro', 'business'] as const)
    await em.nativeUpdate(Plan, { tier }, { stripePriceId: prices[tier] });
  for (const moduleKey of ['vr', 'rh'] as const)
    await em.nativeUpdate(Addon, { moduleKey }, { stripePriceId: prices[moduleKey] });
}

/** Removes every Stripe price link again. */
export async function unlinkPrices(stack: TestStack): Promise<void> {
  const em = stack.services.orm.em.fork();
  await em.nativeUpdate(Plan, {}, { stripePriceId: null });
  await em.nativeUpdate(Addon, {}, { stripePriceId: null });
}

/** The organisation's subscription as stored. */
export function subscriptionOf(stack: TestStack, tenantId: string): Promise<Subscription> {
  return stack.services.orm.em.fork().findOneOrFail(Subscription, { tenantId }, { filters: { tenant: false } });
}

/** Writes subscription fields directly (test set-up only), then invalidates like the domain does. */
export async function setSubscription(
  stack: TestStack,
  tenantId: string,
  values: Partial<
    Pick<
      Subscription,
      | 'tier'
      | 'status'
      | 'addons'
      | 'stripeCustomerId'
      | 'stripeSubscriptionId'
      | 'stripeEventAt'
      | 'trialStartedAt'
      | 'trialEndsAt'
      | 'trialModules'
    >
  >,
): Promise<void> {
  await stack.services.orm.em.fork().nativeUpdate(Subscription, { tenantId }, values, { filters: false });
  await stack.services.entitlements.invalidate(tenantId);
}

/** POSTs a signed Stripe event to the webhook. */
export function deliver(stack: TestStack, event: Record<string, unknown>, secret = WEBHOOK_SECRET) {
  const { body, signature } = signedDelivery(event, secret);
  return stack.http
    .post('/api/webhooks/stripe')
    .set('Content-Type', 'application/json')
    .set('Stripe-Signature', signature)
    .send(body);
}

/** Waits until the worker has processed the stored event; returns the row. */
export function processed(stack: TestStack, eventId: string): Promise<StripeEvent> {
  return eventually(
    async () => {
      const row = await stack.services.orm.em.fork().findOne(StripeEvent, { id: eventId });
      return row?.processedAt ? row : null;
    },
    { what: `Stripe event ${eventId} processed` },
  );
}

/** Waits for a job to reach a final state and returns it. */
export async function finishedJob<P>(stack: TestStack, queue: QueueDefinition<P>, jobId: string): Promise<Job<P>> {
  const q = stack.services.queues.get(queue);
  return eventually(
    async () => {
      // The state first, then the job: a job read while still active would keep its empty returnvalue.
      const state = await q.getJobState(jobId);
      return state === 'completed' || state === 'failed' ? ((await q.getJob(jobId)) as Job<P>) : null;
    },
    { what: `job ${jobId}` },
  );
}
