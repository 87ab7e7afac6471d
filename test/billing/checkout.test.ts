import { Plan } from '../../entities/billing/plan';
import { Promotion } from '../../entities/billing/promotion';
import {
  deliver,
  linkPrices,
  prices,
  processed,
  setSubscription,
  subscriptionOf,
  WEBHOOK_SECRET,
} from '../support/billing';
import { addMember, createAccount, type Account } from '../support/factories';
import { FakeStripe, stripeEvent } from '../support/fakeStripe';
import { startStack, type TestStack } from '../support/stack';

/** POST /api/checkout/session, /embedded-session and /portal against a local Stripe stand-in, and what completing them does. */
describe('checkout and portal', () => {
  let stack: TestStack;
  let fake: FakeStripe;
  let admin: Account;
  beforeAll(async () => {
    fake = await FakeStripe.start();
    stack = await startStack({
      workers: ['stripe-events'],
      env: {
        STRIPE_SECRET_KEY: 'sk_test_fake',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: fake.url,
        BILLING_RETURN_URL: 'https://app.example.test/settings/billing',
      },
    });
    await linkPrices(stack);
    admin = await createAccount(stack, { platformAdmin: true });
    const promo = await stack.http
      .put('/api/promo/0190c1d2-0000-7000-8000-00000000c0de')
      .set(admin.auth)
      .send({ code: 'Spring20', percentOff: 20, appliesToTiers: ['pro', 'business'] });
    expect(promo.status).toBe(201);
  });
  afterAll(async () => {
    await stack?.close();
    await fake?.close();
  });

  const checkout = (who: Account, body: object) => stack.http.post('/api/checkout/session').set(who.auth).send(body);
  /** The customer pays the session at Stripe, and Stripe's webhook reports it; answers the stored event once applied. */
  const pay = async (sessionId: string) => {
    const event = stripeEvent('checkout.session.completed', fake.completeCheckout(sessionId));
    expect((await deliver(stack, event)).status).toBe(200);
    return processed(stack, event.id as string);
  };

  it('opens a hosted subscription checkout with add-ons and a promotion, creating the customer once', async () => {
    const owner = await createAccount(stack);
    const res = await checkout(owner, { tier: 'pro', addons: ['rh'], promoCode: 'spring20' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^cs_/),
      url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\//),
    });

    const [customer] = fake
      .callsTo('POST', '/v1/customers')
      .filter((c) => (c.body.metadata as Record<string, string>).tenantId === owner.tenantId);
    expect(customer.body).toMatchObject({ email: owner.email, name: owner.org.name });
    expect(customer.idempotencyKey).toBe(`customer.${owner.tenantId}`);
    const customerId = (await subscriptionOf(stack, owner.tenantId)).stripeCustomerId;
    expect(customerId).toMatch(/^cus_/);

    const [coupon] = fake.callsTo('POST', '/v1/coupons');
    expect(coupon.body).toMatchObject({ percent_off: '20', duration: 'once', name: 'SPRING20' });
    const session = fake.callsTo('POST', '/v1/checkout/sessions').at(-1)!.body;
    expect(session).toMatchObject({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: owner.tenantId,
      line_items: [
        { price: prices.pro, quantity: '1' },
        { price: prices.rh, quantity: '1' },
      ],
      metadata: {
        tenantId: owner.tenantId,
        tier: 'pro',
        addons: 'rh',
        promotionId: '0190c1d2-0000-7000-8000-00000000c0de',
      },
      subscription_data: { metadata: { tenantId: owner.tenantId } },
      discounts: [{ coupon: expect.stringMatching(/^coupon_/) }],
      success_url: 'https://app.example.test/settings/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://app.example.test/settings/billing?checkout=canceled',
    });

    // A second attempt reuses the customer and the coupon; nothing about the subscription changed yet.
    const again = await checkout(owner, { tier: 'business', promoCode: 'SPRING20' });
    expect(again.status).toBe(200);
    expect(
      fake
        .callsTo('POST', '/v1/customers')
        .filter((c) => (c.body.metadata as Record<string, string>).tenantId === owner.tenantId),
    ).toHaveLength(1);
    expect(fake.callsTo('POST', '/v1/coupons')).toHaveLength(1);
    expect(fake.callsTo('POST', '/v1/checkout/sessions').at(-1)!.body).toMatchObject({
      customer: customerId,
      line_items: [{ price: prices.business }],
    });
    expect(await subscriptionOf(stack, owner.tenantId)).toMatchObject({ tier: 'free', stripeSubscriptionId: null });
  });

  it('opens an embedded checkout answering a client secret', async () => {
    const owner = await createAccount(stack);
    const res = await stack.http
      .post('/api/checkout/embedded-session')
      .set(owner.auth)
      .send({ tier: 'starter', addons: ['vr'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.stringMatching(/^cs_/), clientSecret: expect.stringMatching(/_secret_/) });
    expect(fake.callsTo('POST', '/v1/checkout/sessions').at(-1)!.body).toMatchObject({
      ui_mode: 'embedded_page',
      return_url: 'https://app.example.test/settings/billing?checkout=complete&session_id={CHECKOUT_SESSION_ID}',
      line_items: [{ price: prices.starter }, { price: prices.vr }],
    });
  });

  it('opens the billing portal for an organisation with a customer, 409 before any checkout', async () => {
    const owner = await createAccount(stack);
    const none = await stack.http.post('/api/checkout/portal').set(owner.auth);
    expect(none.status).toBe(409);
    expect(none.body.code).toBe('no_billing_account');
    await checkout(owner, { tier: 'pro' });
    const res = await stack.http.post('/api/checkout/portal').set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: expect.stringMatching(/^https:\/\/billing\.stripe\.test\//) });
    expect(fake.callsTo('POST', '/v1/billing_portal/sessions').at(-1)!.body).toEqual({
      customer: (await subscriptionOf(stack, owner.tenantId)).stripeCustomerId,
      return_url: 'https://app.example.test/settings/billing',
    });
  });

  it('refuses a checkout while a paid subscription exists (409 subscription_exists)', async () => {
    const owner = await createAccount(stack);
    await setSubscription(stack, owner.tenantId, {
      tier: 'pro',
      stripeCustomerId: `cus_${owner.tenantId}`,
      stripeSubscriptionId: `sub_${owner.tenantId}`,
    });
    const res = await checkout(owner, { tier: 'business' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('subscription_exists');
  });

  it('keeps one open checkout per organisation: a new one expires the previous at Stripe, so only the last can be paid', async () => {
    const owner = await createAccount(stack);
    const first = await checkout(owner, { tier: 'pro' });
    const second = await checkout(owner, { tier: 'business' });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(fake.callsTo('POST', `/v1/checkout/sessions/${first.body.id}/expire`)).toHaveLength(1);
    expect(() => fake.completeCheckout(first.body.id)).toThrow(/expired/);
    expect((await pay(second.body.id)).outcome).toBe('applied');
    expect(await subscriptionOf(stack, owner.tenantId)).toMatchObject({
      tier: 'business',
      stripeSubscriptionId: fake.sessions.get(second.body.id)!.subscription,
      stripeCheckoutSessionId: null,
    });
    expect(fake.callsTo('DELETE', /^\/v1\/subscriptions\//)).toHaveLength(0);

    // Two at once (a double click): one of them stays payable.
    const other = await createAccount(stack);
    const both = await Promise.all([checkout(other, { tier: 'pro' }), checkout(other, { tier: 'pro' })]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.map((r) => fake.sessions.get(r.body.id)!.status).sort()).toEqual(['expired', 'open']);
  });

  it('answers 409 subscription_exists when the previous checkout was paid and its webhook has not arrived yet, expiring the new one', async () => {
    const owner = await createAccount(stack);
    const first = await checkout(owner, { tier: 'pro' });
    fake.completeCheckout(first.body.id);
    const again = await checkout(owner, { tier: 'business' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('subscription_exists');
    const sessions = [...fake.sessions.values()].filter((c) => c.client_reference_id === owner.tenantId);
    expect(sessions.map((c) => c.status)).toEqual(['complete', 'expired']);
  });

  it('holds maxRedemptions when checkouts complete: the Stripe coupon carries the limit, and a completion past it is not counted', async () => {
    const putPromo = (id: string, body: object) =>
      stack.http
        .put(`/api/promo/${id}`)
        .set(admin.auth)
        .send({ percentOff: 50, ...body });
    const redemptions = async (id: string) =>
      (await stack.services.orm.em.fork().findOneOrFail(Promotion, { id })).redemptions;
    const once = '0190c1d2-0000-7000-8000-0000000001e1';
    const expiresAt = new Date(Date.now() + 86_400_000);
    expect(
      (await putPromo(once, { code: 'ONLYONCE', maxRedemptions: 1, expiresAt: expiresAt.toISOString() })).status,
    ).toBe(201);
    const opened = [];
    for (const owner of await Promise.all([createAccount(stack), createAccount(stack), createAccount(stack)]))
      opened.push(await checkout(owner, { tier: 'pro', promoCode: 'onlyonce' }));
    expect(opened.map((r) => r.status)).toEqual([200, 200, 200]);
    const coupons = fake.callsTo('POST', '/v1/coupons').filter((c) => c.body.name === 'ONLYONCE');
    expect(coupons.map((c) => c.body)).toEqual([
      expect.objectContaining({ max_redemptions: '1', redeem_by: String(Math.floor(expiresAt.getTime() / 1000)) }),
    ]);
    expect((await pay(opened[0].body.id)).outcome).toBe('applied');
    // Stripe refuses to complete the others with the used-up coupon.
    for (const other of opened.slice(1)) expect(() => fake.completeCheckout(other.body.id)).toThrow(/no longer valid/);
    expect(await redemptions(once)).toBe(1);

    // Checkouts opened before the limit was lowered carry the older coupon, which Stripe still honours.
    const lowered = '0190c1d2-0000-7000-8000-0000000001e2';
    await putPromo(lowered, { code: 'LOWERED', maxRedemptions: 5 });
    const [a, b] = await Promise.all([createAccount(stack), createAccount(stack)]);
    const early = [
      await checkout(a, { tier: 'pro', promoCode: 'LOWERED' }),
      await checkout(b, { tier: 'pro', promoCode: 'LOWERED' }),
    ];
    expect((await putPromo(lowered, { code: 'LOWERED', maxRedemptions: 1 })).status).toBe(200);
    expect((await stack.services.orm.em.fork().findOneOrFail(Promotion, { id: lowered })).stripeCouponId).toBeNull();
    expect((await pay(early[0].body.id)).outcome).toBe('applied');
    expect((await pay(early[1].body.id)).outcome).toBe('applied');
    // Past the limit: the subscription stands (the discount was the first invoice's), the redemption is not counted.
    expect((await subscriptionOf(stack, b.tenantId)).tier).toBe('pro');
    expect(await redemptions(lowered)).toBe(1);
    const late = await checkout(await createAccount(stack), { tier: 'pro', promoCode: 'LOWERED' });
    expect(late.status).toBe(400);
    expect(late.body.errors).toEqual([
      expect.objectContaining({ field: 'promoCode', message: expect.stringMatching(/exhausted/) }),
    ]);
  });

  it('refuses a tier without a Stripe price (409 plan_not_purchasable)', async () => {
    const owner = await createAccount(stack);
    await stack.services.orm.em.fork().nativeUpdate(Plan, { tier: 'starter' }, { stripePriceId: null });
    try {
      const res = await checkout(owner, { tier: 'starter' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('plan_not_purchasable');
    } finally {
      await linkPrices(stack);
    }
  });

  it.each([
    [{}, 'tier'],
    [{ tier: 'gold' }, 'tier'],
    [{ tier: 'free' }, 'tier'],
    [{ tier: 'enterprise' }, 'tier'],
    [{ tier: 'pro', addons: ['vr'] }, 'addons'],
    [{ tier: 'pro', addons: ['teleport'] }, 'addons'],
    [{ tier: 'starter', promoCode: 'SPRING20' }, 'promoCode'],
    [{ tier: 'pro', promoCode: 'NOPE' }, 'promoCode'],
    [{ tier: 'pro', successUrl: 'https://evil.test' }, 'successUrl'],
  ])('answers 400 validation_failed to %j', async (body, field) => {
    const owner = await createAccount(stack);
    const res = await checkout(owner, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('refuses members without billing.manage', async () => {
    const owner = await createAccount(stack);
    const member = await addMember(stack, owner, 'member');
    for (const path of ['/api/checkout/session', '/api/checkout/embedded-session', '/api/checkout/portal']) {
      const res = await stack.http.post(path).set(member.auth).send({ tier: 'pro' });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('permission_denied');
    }
  });

  it('answers 503 payment_provider_not_configured without STRIPE_SECRET_KEY, while the rest keeps working', async () => {
    const bare = await startStack({ sharing: stack, workers: false, env: { STRIPE_SECRET_KEY: '' } });
    try {
      const owner = await createAccount(bare);
      for (const path of ['/api/checkout/session', '/api/checkout/embedded-session', '/api/checkout/portal']) {
        // The portal takes no body (400 body_not_allowed for one).
        const res = await bare.http
          .post(path)
          .set(owner.auth)
          .send(path.endsWith('/portal') ? undefined : { tier: 'pro' });
        expect(res.status).toBe(503);
        expect(res.body.code).toBe('payment_provider_not_configured');
      }
      expect((await bare.http.get('/api/subscription').set(owner.auth)).status).toBe(200);
      expect((await bare.http.post('/api/subscription/start-trial').set(owner.auth).send({})).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
