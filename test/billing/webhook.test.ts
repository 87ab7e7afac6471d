import { StripeEvent } from '../../entities/billing/stripeEvent';
import { Promotion } from '../../entities/billing/promotion';
import { stripeEventsQueue } from '../../queues/billing';
import { stripeEventJobId } from '../../domain/billing/receiveStripeWebhook';
import {
  deliver,
  finishedJob,
  linkPrices,
  prices,
  processed,
  setSubscription,
  subscriptionOf,
  WEBHOOK_SECRET,
} from '../support/billing';
import { createAccount, type Account } from '../support/factories';
import { FakeStripe, signedDelivery, stripeEvent } from '../support/fakeStripe';
import { startStack, type TestStack } from '../support/stack';

/** POST /api/webhooks/stripe: signature, storage, replay, ordering, and what each handled event does. */
describe('Stripe webhook', () => {
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

  const storedEvents = () => stack.services.orm.em.fork().count(StripeEvent, {});
  const now = () => Math.floor(Date.now() / 1000);

  /** A paying organisation: customer + Stripe subscription linked, as after a checkout. */
  async function payingOrg(
    tier: 'pro' | 'business' = 'pro',
  ): Promise<{ account: Account; sub: Record<string, unknown> }> {
    const account = await createAccount(stack);
    const sub = fake.createSubscription({
      customer: `cus_${account.tenantId.replace(/-/g, '')}`,
      prices: [prices[tier]],
      metadata: { tenantId: account.tenantId },
    });
    await setSubscription(stack, account.tenantId, {
      tier,
      stripeCustomerId: sub.customer as string,
      stripeSubscriptionId: sub.id as string,
    });
    return { account, sub };
  }

  it('answers a delivery without Stripe-Signature with a silent 200 and stores nothing', async () => {
    const before = await storedEvents();
    const res = await stack.http
      .post('/api/webhooks/stripe')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(stripeEvent('invoice.paid', {})));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: false });
    expect(await storedEvents()).toBe(before);
  });

  it('refuses a bad signature (other secret, or a body changed after signing) with 403 and stores nothing', async () => {
    const before = await storedEvents();
    const event = stripeEvent('invoice.paid', {});
    const wrong = await deliver(stack, event, 'whsec_someone_else');
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ code: 'signature_invalid', status: 403 });

    const { signature } = signedDelivery(event, WEBHOOK_SECRET);
    const tampered = await stack.http
      .post('/api/webhooks/stripe')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signature)
      .send(JSON.stringify({ ...event, type: 'customer.subscription.deleted' }));
    expect(tampered.status).toBe(403);
    expect(tampered.body.code).toBe('signature_invalid');

    const stale = signedDelivery(event, WEBHOOK_SECRET, now() - 3600);
    const old = await stack.http
      .post('/api/webhooks/stripe')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', stale.signature)
      .send(stale.body);
    expect(old.status).toBe(403);
    expect(await storedEvents()).toBe(before);
  });

  it('answers 400 to a correctly signed body that is not an event', async () => {
    const { body, signature } = signedDelivery('not json', WEBHOOK_SECRET);
    const res = await stack.http
      .post('/api/webhooks/stripe')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signature)
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_payload');
  });

  it('applies checkout.session.completed: links the customer and subscription, sets the tier, counts the promotion, invalidates gating', async () => {
    const account = await createAccount(stack);
    const em = stack.services.orm.em.fork();
    const promo = em.create(Promotion, { code: 'WELCOME10', percentOff: 10 });
    await em.flush();
    // Warm the entitlement cache with the free tier.
    expect((await stack.http.get('/api/entitlements/me').set(account.auth)).body.modules).not.toContain('vr');

    const remote = fake.createSubscription({
      customer: 'cus_checkout1',
      prices: [prices.pro, prices.rh],
      metadata: { tenantId: account.tenantId },
    });
    const event = stripeEvent('checkout.session.completed', {
      id: 'cs_test_1',
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: account.tenantId,
      customer: 'cus_checkout1',
      subscription: remote.id,
      metadata: { tenantId: account.tenantId, tier: 'pro', promotionId: promo.id },
    });
    const res = await deliver(stack, event);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });

    const row = await processed(stack, event.id as string);
    expect(row).toMatchObject({ type: 'checkout.session.completed', tenantId: account.tenantId, outcome: 'applied' });
    const sub = await subscriptionOf(stack, account.tenantId);
    expect(sub).toMatchObject({
      tier: 'pro',
      addons: ['rh'],
      status: 'active',
      stripeCustomerId: 'cus_checkout1',
      stripeSubscriptionId: remote.id,
    });
    expect(sub.currentPeriodEnd).toBeInstanceOf(Date);
    expect(fake.callsTo('GET', `/v1/subscriptions/${remote.id}`)).toHaveLength(1);
    expect((await em.fork().findOneOrFail(Promotion, { id: promo.id })).redemptions).toBe(1);
    const me = await stack.http.get('/api/entitlements/me').set(account.auth);
    expect(me.body).toMatchObject({ tier: 'pro', addons: ['rh'], modules: ['cloud', 'core', 'knowledge', 'rh', 'vr'] });
  });

  it('stores an event once and applies it once when Stripe delivers it three times', async () => {
    const { account, sub } = await payingOrg();
    const em = stack.services.orm.em.fork();
    const promo = em.create(Promotion, { code: 'THRICE', amountOffCents: 500, currency: 'EUR' });
    await em.flush();
    const event = stripeEvent('checkout.session.completed', {
      id: 'cs_test_3',
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: account.tenantId,
      customer: sub.customer,
      subscription: sub.id,
      metadata: { promotionId: promo.id },
    });
    const queue = stack.services.queues.get(stripeEventsQueue);
    const jobsBefore = Object.values(await queue.getJobCounts()).reduce((a, b) => a + b, 0);

    // Two deliveries race each other, the third comes once the first was applied.
    const racing = await Promise.all([deliver(stack, event), deliver(stack, event)]);
    expect(racing.map((r) => r.status)).toEqual([200, 200]);
    expect(racing.map((r) => !!r.body.duplicate).sort()).toEqual([false, true]);
    await processed(stack, event.id as string);
    const replay = await deliver(stack, event);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true, duplicate: true });
    expect(await em.fork().count(StripeEvent, { id: event.id as string })).toBe(1);
    const jobsAfter = Object.values(await queue.getJobCounts()).reduce((a, b) => a + b, 0);
    expect(jobsAfter - jobsBefore).toBe(1);
    expect(await (await finishedJob(stack, stripeEventsQueue, stripeEventJobId(event.id as string))).getState()).toBe(
      'completed',
    );
    expect((await em.fork().findOneOrFail(Promotion, { id: promo.id })).redemptions).toBe(1);
  });

  it('keeps one subscription when a second checkout completes: the earlier is cancelled at Stripe, and its events no longer change the plan', async () => {
    const { account, sub: first } = await payingOrg('pro');
    const second = fake.createSubscription({
      customer: first.customer as string,
      prices: [prices.business],
      metadata: { tenantId: account.tenantId },
      created: (first.created as number) + 60,
    });
    const completed = stripeEvent('checkout.session.completed', {
      id: `cs_${second.id}`,
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: account.tenantId,
      customer: first.customer,
      subscription: second.id,
      metadata: {},
    });
    await deliver(stack, completed);
    expect((await processed(stack, completed.id as string)).outcome).toBe('applied');
    expect(await subscriptionOf(stack, account.tenantId)).toMatchObject({
      tier: 'business',
      stripeSubscriptionId: second.id,
    });
    expect(fake.callsTo('DELETE', `/v1/subscriptions/${first.id}`).map((c) => c.body)).toEqual([
      { invoice_now: 'true', prorate: 'true' },
    ]);
    expect(fake.subscriptions.get(first.id as string)!.status).toBe('canceled');

    // The first one's events (an update sent before its cancellation, then the cancellation) never switch the organisation back.
    for (const [type, status] of [
      ['customer.subscription.updated', 'active'],
      ['customer.subscription.deleted', 'canceled'],
    ]) {
      const event = stripeEvent(type, { ...first, status });
      await deliver(stack, event);
      expect((await processed(stack, event.id as string)).outcome).toBe('ignored');
    }
    expect(await subscriptionOf(stack, account.tenantId)).toMatchObject({
      tier: 'business',
      status: 'active',
      stripeSubscriptionId: second.id,
    });
  });

  it("keeps the newer subscription when the older checkout's completion is applied last", async () => {
    const account = await createAccount(stack);
    const customer = `cus_two${account.tenantId.slice(0, 8)}`;
    const [older, newer] = [prices.pro, prices.business].map((price, i) =>
      fake.createSubscription({
        customer,
        prices: [price],
        metadata: { tenantId: account.tenantId },
        created: now() - 120 + i * 60,
      }),
    );
    const completion = (sub: Record<string, unknown>) =>
      stripeEvent(
        'checkout.session.completed',
        {
          id: `cs_${sub.id}`,
          object: 'checkout.session',
          mode: 'subscription',
          client_reference_id: account.tenantId,
          customer,
          subscription: sub.id,
          metadata: {},
        },
        { created: sub.created as number },
      );
    // The newer checkout's event is applied first, the older one's after it.
    for (const [sub, outcome] of [
      [newer, 'applied'],
      [older, 'ignored'],
    ] as const) {
      const event = completion(sub);
      await deliver(stack, event);
      expect((await processed(stack, event.id as string)).outcome).toBe(outcome);
    }
    expect(await subscriptionOf(stack, account.tenantId)).toMatchObject({
      tier: 'business',
      stripeSubscriptionId: newer.id,
    });
    expect([older, newer].map((sub) => fake.subscriptions.get(sub.id as string)!.status)).toEqual([
      'canceled',
      'active',
    ]);
  });

  it('stores and applies a signed event whose JSON carries \\u0000 (jsonb refuses it), dropping the NUL', async () => {
    const { account, sub } = await payingOrg('pro');
    const event = stripeEvent('customer.subscription.updated', {
      ...sub,
      metadata: { tenantId: account.tenantId, 'no\u0000te': 'a\u0000b \ud800' },
      items: {
        object: 'list',
        data: [{ id: 'si_nul', price: { id: prices.business }, current_period_end: now() + 86400 }],
      },
    });
    const res = await deliver(stack, event);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    const row = await processed(stack, event.id as string);
    expect(row.outcome).toBe('applied');
    expect((row.payload as { data: { object: { metadata: Record<string, string> } } }).data.object.metadata).toEqual({
      tenantId: account.tenantId,
      note: 'ab \ufffd',
    });
    expect((await subscriptionOf(stack, account.tenantId)).tier).toBe('business');
  });

  it('keeps the newer state when an older customer.subscription.updated arrives after a newer one', async () => {
    const { account, sub } = await payingOrg();
    const t = now();
    const newer = stripeEvent(
      'customer.subscription.updated',
      {
        ...sub,
        items: {
          object: 'list',
          data: [{ id: 'si_n', price: { id: prices.business }, current_period_end: t + 86400 }],
        },
      },
      { created: t },
    );
    const older = stripeEvent(
      'customer.subscription.updated',
      {
        ...sub,
        items: { object: 'list', data: [{ id: 'si_o', price: { id: prices.starter }, current_period_end: t + 86400 }] },
      },
      { created: t - 60 },
    );
    await deliver(stack, newer);
    expect((await processed(stack, newer.id as string)).outcome).toBe('applied');
    await deliver(stack, older);
    expect((await processed(stack, older.id as string)).outcome).toBe('stale');
    const state = await subscriptionOf(stack, account.tenantId);
    expect(state.tier).toBe('business');
    expect(state.stripeEventAt?.getTime()).toBe(t * 1000);
  });

  it('moves past_due on invoice.payment_failed and back to active on invoice.paid', async () => {
    const { account, sub } = await payingOrg();
    const invoice = (paid: boolean) => ({
      id: `in_${paid}`,
      object: 'invoice',
      customer: sub.customer,
      paid,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: sub.id, metadata: { tenantId: account.tenantId } },
      },
    });
    const failed = stripeEvent('invoice.payment_failed', invoice(false));
    await deliver(stack, failed);
    expect((await processed(stack, failed.id as string)).outcome).toBe('applied');
    expect((await subscriptionOf(stack, account.tenantId)).status).toBe('past_due');
    // Access continues while Stripe retries.
    expect((await stack.http.get('/api/entitlements/me').set(account.auth)).body).toMatchObject({
      status: 'past_due',
      modules: expect.arrayContaining(['vr']),
    });
    const paid = stripeEvent('invoice.paid', invoice(true));
    await deliver(stack, paid);
    await processed(stack, paid.id as string);
    expect((await subscriptionOf(stack, account.tenantId)).status).toBe('active');
  });

  it('reads the subscription of an invoice in the shape of older API versions (invoice.subscription)', async () => {
    const { account, sub } = await payingOrg();
    const invoice = (paid: boolean) => ({
      id: `in_old_${paid}`,
      object: 'invoice',
      customer: sub.customer,
      paid,
      subscription: sub.id,
      subscription_details: { metadata: { tenantId: account.tenantId } },
    });
    const failed = stripeEvent('invoice.payment_failed', invoice(false));
    await deliver(stack, failed);
    expect(await processed(stack, failed.id as string)).toMatchObject({
      outcome: 'applied',
      tenantId: account.tenantId,
    });
    expect((await subscriptionOf(stack, account.tenantId)).status).toBe('past_due');
    const paid = stripeEvent('invoice.paid', invoice(true));
    await deliver(stack, paid);
    expect((await processed(stack, paid.id as string)).outcome).toBe('applied');
    expect((await subscriptionOf(stack, account.tenantId)).status).toBe('active');
  });

  it('returns the organisation to free on customer.subscription.deleted', async () => {
    const { account, sub } = await payingOrg('business');
    expect((await stack.http.get('/api/entitlements/me').set(account.auth)).body.modules).toContain('rh');
    const event = stripeEvent('customer.subscription.deleted', { ...sub, status: 'canceled' });
    await deliver(stack, event);
    expect((await processed(stack, event.id as string)).outcome).toBe('applied');
    expect(await subscriptionOf(stack, account.tenantId)).toMatchObject({
      tier: 'free',
      addons: [],
      status: 'active',
      stripeSubscriptionId: null,
      stripeCustomerId: sub.customer,
      cancelAtPeriodEnd: false,
    });
    expect((await stack.http.get('/api/entitlements/me').set(account.auth)).body.modules).toEqual([
      'cloud',
      'core',
      'knowledge',
    ]);
  });

  it('downgrades an unpaid subscription and restores it when it is active again', async () => {
    const { account, sub } = await payingOrg('pro');
    const unpaid = stripeEvent('customer.subscription.updated', { ...sub, status: 'unpaid' }, { created: now() - 10 });
    await deliver(stack, unpaid);
    await processed(stack, unpaid.id as string);
    expect(await subscriptionOf(stack, account.tenantId)).toMatchObject({
      tier: 'free',
      status: 'unpaid',
      stripeSubscriptionId: sub.id,
    });
    const active = stripeEvent('customer.subscription.updated', { ...sub, status: 'active' });
    await deliver(stack, active);
    await processed(stack, active.id as string);
    expect(await subscriptionOf(stack, account.tenantId)).toMatchObject({ tier: 'pro', status: 'active' });
  });

  it('records events of unknown organisations and unhandled types as ignored', async () => {
    const orphan = stripeEvent('customer.subscription.updated', {
      id: 'sub_nobody',
      object: 'subscription',
      customer: 'cus_nobody',
      status: 'active',
      metadata: {},
      cancel_at_period_end: false,
      items: { data: [] },
    });
    const other = stripeEvent('customer.created', { id: 'cus_new', object: 'customer' });
    for (const event of [orphan, other]) {
      expect((await deliver(stack, event)).status).toBe(200);
      expect(await processed(stack, event.id as string)).toMatchObject({ outcome: 'ignored', tenantId: null });
    }
  });

  it('answers 503 webhook_not_configured without STRIPE_WEBHOOK_SECRET (Stripe retries later)', async () => {
    const bare = await startStack({ sharing: stack, workers: false, env: { STRIPE_WEBHOOK_SECRET: '' } });
    try {
      const res = await deliver(bare, stripeEvent('invoice.paid', {}));
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('webhook_not_configured');
    } finally {
      await bare.close();
    }
  });
});
