import { stripeEventJobId } from '../../domain/billing/receiveStripeWebhook';
import { stripeEventsQueue } from '../../queues/billing';
import {
  deliver,
  finishedJob,
  linkPrices,
  prices,
  processed,
  subscriptionOf,
  WEBHOOK_SECRET,
} from '../support/billing';
import { createAccount } from '../support/factories';
import { FakeStripe, stripeEvent } from '../support/fakeStripe';
import { startStack, type TestStack } from '../support/stack';

/**
 * Regression: a Stripe redelivery of an unprocessed event is offered to the worker again. Once its job has
 * exhausted its attempts (a Stripe API failure counts against them: only PostgreSQL/Redis outages are waited
 * out), the failed job is kept two weeks under its fixed id and BullMQ drops a re-add: the redelivery used to be
 * answered 200 `duplicate` and the paid checkout was never applied. The failed job is now retried.
 */
describe('billing webhooks: redelivery of an event whose job failed (regression)', () => {
  let stack: TestStack;
  let fake: FakeStripe;
  beforeAll(async () => {
    fake = await FakeStripe.start();
    stack = await startStack({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_fake',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: fake.url,
        JOB_RETRY_DELAY_MS: '1',
      },
    });
    await linkPrices(stack);
  });
  afterAll(async () => {
    await stack?.close();
    await fake?.close();
  });

  it('applies a redelivered checkout.session.completed once Stripe answers again', async () => {
    const account = await createAccount(stack);
    const customer = `cus_${account.tenantId.replace(/-/g, '')}`;
    const paid = fake.createSubscription({ customer, prices: [prices.pro], metadata: { tenantId: account.tenantId } });
    const subId = paid.id as string;
    // Stripe cannot answer GET /v1/subscriptions/{id} for now (the fake answers 404 while it is hidden).
    fake.subscriptions.delete(subId);
    const event = stripeEvent('checkout.session.completed', {
      id: 'cs_redeliver',
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: account.tenantId,
      customer,
      subscription: subId,
      metadata: {},
    });

    expect((await deliver(stack, event)).status).toBe(200);
    const job = await finishedJob(stack, stripeEventsQueue, stripeEventJobId(event.id as string));
    expect(await job.getState()).toBe('failed');

    // Stripe answers again, and Stripe redelivers the event (it retries for days).
    fake.subscriptions.set(subId, paid);
    const again = await deliver(stack, event);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true });

    const row = await processed(stack, event.id as string);
    expect({ processed: !!row.processedAt, tier: (await subscriptionOf(stack, account.tenantId)).tier }).toEqual({
      processed: true,
      tier: 'pro',
    });
    // Processed once: a further redelivery is a plain duplicate.
    expect((await deliver(stack, event)).body).toEqual({ received: true, duplicate: true });
  });
});
