import {
  deliver,
  linkPrices,
  prices,
  processed,
  setSubscription,
  subscriptionOf,
  WEBHOOK_SECRET,
} from '../support/billing';
import { createAccount } from '../support/factories';
import { FakeStripe, stripeEvent } from '../support/fakeStripe';
import { startStack, type TestStack } from '../support/stack';

/**
 * Regression: customer.subscription.deleted is final for that subscription. An update of the same subscription
 * stamped with the same second (Stripe's `created` has one-second resolution; the ordering check is a strict
 * `<`) applied after it used to re-link the cancelled subscription and give the paid tier back for good.
 */
describe('billing webhooks: deletion is final (regression)', () => {
  let stack: TestStack;
  let fake: FakeStripe;
  beforeAll(async () => {
    fake = await FakeStripe.start();
    stack = await startStack({
      env: { STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url },
    });
    await linkPrices(stack);
  });
  afterAll(async () => {
    await stack?.close();
    await fake?.close();
  });

  it('keeps a cancelled subscription cancelled when an update of the same second is applied after the deletion', async () => {
    const account = await createAccount(stack);
    const sub = fake.createSubscription({
      customer: `cus_${account.tenantId.replace(/-/g, '')}`,
      prices: [prices.business],
      metadata: { tenantId: account.tenantId },
    });
    await setSubscription(stack, account.tenantId, {
      tier: 'business',
      stripeCustomerId: sub.customer as string,
      stripeSubscriptionId: sub.id as string,
    });
    const t = Math.floor(Date.now() / 1000);

    // Cancelled immediately (portal): Stripe sends the last update and the deletion within the same second;
    // the deletion happens to be delivered first (ordering is not guaranteed).
    const deleted = stripeEvent('customer.subscription.deleted', { ...sub, status: 'canceled' }, { created: t });
    const updated = stripeEvent(
      'customer.subscription.updated',
      { ...sub, status: 'active', cancel_at_period_end: true },
      { created: t },
    );
    await deliver(stack, deleted);
    expect((await processed(stack, deleted.id as string)).outcome).toBe('applied');
    expect(await subscriptionOf(stack, account.tenantId)).toMatchObject({ tier: 'free', stripeSubscriptionId: null });

    await deliver(stack, updated);
    expect((await processed(stack, updated.id as string)).outcome).toBe('stale');
    const after = await subscriptionOf(stack, account.tenantId);
    const ent = await stack.http.get('/api/entitlements/me').set(account.auth);
    expect({ tier: after.tier, linked: after.stripeSubscriptionId, rh: ent.body.modules.includes('rh') }).toEqual({
      tier: 'free',
      linked: null,
      rh: false,
    });
  });
});
