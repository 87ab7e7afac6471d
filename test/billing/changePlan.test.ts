import { linkPrices, prices, setSubscription, subscriptionOf } from '../support/billing';
import { addMember, createAccount, type Account } from '../support/factories';
import { FakeStripe } from '../support/fakeStripe';
import { startStack, type TestStack } from '../support/stack';

/** POST /api/subscription/change-plan: checkout first, Stripe updates for paid -> paid, cancel at period end for -> free. */
describe('change plan', () => {
  let stack: TestStack;
  let fake: FakeStripe;
  beforeAll(async () => {
    fake = await FakeStripe.start();
    stack = await startStack({ workers: false, env: { STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_API_URL: fake.url } });
    await linkPrices(stack);
  });
  afterAll(async () => {
    await stack?.close();
    await fake?.close();
  });

  const change = (who: Account, body: object) =>
    stack.http.post('/api/subscription/change-plan').set(who.auth).send(body);
  const modules = async (who: Account) =>
    (await stack.http.get('/api/entitlements/me').set(who.auth)).body.modules as string[];

  /** An organisation paying for `tier` (+ add-ons) through a Stripe subscription held by the fake. */
  async function paying(tier: 'starter' | 'pro' | 'business', addons: ('vr' | 'rh')[] = []) {
    const owner = await createAccount(stack);
    const remote = fake.createSubscription({
      customer: `cus_${owner.tenantId}`,
      prices: [prices[tier], ...addons.map((a) => prices[a])],
      metadata: { tenantId: owner.tenantId },
    });
    await setSubscription(stack, owner.tenantId, {
      tier,
      addons,
      stripeCustomerId: remote.customer as string,
      stripeSubscriptionId: remote.id as string,
    });
    return { owner, remote };
  }

  it('asks a free organisation to check out first (409 checkout_required)', async () => {
    const owner = await createAccount(stack);
    const res = await change(owner, { tier: 'pro' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('checkout_required');
    expect((await subscriptionOf(stack, owner.tenantId)).tier).toBe('free');
  });

  it('re-prices the Stripe subscription for paid -> paid and applies the tier at once', async () => {
    const { owner, remote } = await paying('pro');
    expect(await modules(owner)).not.toContain('rh'); // cache warm with pro
    const res = await change(owner, { tier: 'business' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tier: 'business', status: 'active', paid: true, cancelAtPeriodEnd: false });
    const [update] = fake.callsTo('POST', `/v1/subscriptions/${remote.id}`);
    const tierItem = (remote.items as { data: { id: string }[] }).data[0].id;
    expect(update.body).toMatchObject({
      items: [{ id: tierItem, price: prices.business }],
      cancel_at_period_end: 'false',
      proration_behavior: 'create_prorations',
      metadata: { tenantId: owner.tenantId },
    });
    expect(await modules(owner)).toContain('rh');
  });

  it('adds and removes add-ons as subscription items', async () => {
    const { owner, remote } = await paying('starter', ['vr']);
    const added = await change(owner, { tier: 'starter', addons: ['vr', 'rh'] });
    expect(added.status).toBe(200);
    expect(added.body.addons).toEqual(['rh', 'vr']);
    expect(fake.callsTo('POST', `/v1/subscriptions/${remote.id}`).at(-1)!.body.items).toEqual([
      { price: prices.rh, quantity: '1' },
    ]);
    expect(await modules(owner)).toEqual(expect.arrayContaining(['rh', 'vr']));

    const removed = await change(owner, { tier: 'starter', addons: ['rh'] });
    expect(removed.body.addons).toEqual(['rh']);
    const items = fake.callsTo('POST', `/v1/subscriptions/${remote.id}`).at(-1)!.body.items as Record<string, string>[];
    expect(items).toEqual([{ id: expect.stringMatching(/^si_/), deleted: 'true' }]);
    expect(await modules(owner)).not.toContain('vr');
  });

  it('drops add-ons the new tier includes when none are given', async () => {
    const { owner } = await paying('starter', ['vr']);
    const res = await change(owner, { tier: 'pro' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tier: 'pro', addons: [] });
  });

  it('cancels at period end when moving to free, and resumes when asked for the current plan again', async () => {
    const { owner, remote } = await paying('pro');
    const res = await change(owner, { tier: 'free' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tier: 'pro', cancelAtPeriodEnd: true, currentPeriodEnd: expect.any(String) });
    expect(fake.callsTo('POST', `/v1/subscriptions/${remote.id}`).at(-1)!.body).toEqual({
      cancel_at_period_end: 'true',
    });
    expect(await modules(owner)).toContain('vr'); // paid until the period ends

    const resumed = await change(owner, { tier: 'pro' });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ tier: 'pro', cancelAtPeriodEnd: false });
    expect(fake.callsTo('POST', `/v1/subscriptions/${remote.id}`).at(-1)!.body).toMatchObject({
      cancel_at_period_end: 'false',
    });
  });

  it('moves to free at once without a Stripe subscription (tier granted by an administrator)', async () => {
    const owner = await createAccount(stack, { tier: 'business' });
    expect(await modules(owner)).toContain('rh');
    const res = await change(owner, { tier: 'free' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tier: 'free', addons: [] });
    expect(await modules(owner)).toEqual(['cloud', 'core', 'knowledge']);
  });

  it('answers 502 payment_provider_error when Stripe refuses (subscription unknown there) and changes nothing', async () => {
    const owner = await createAccount(stack);
    await setSubscription(stack, owner.tenantId, {
      tier: 'pro',
      stripeCustomerId: `cus_${owner.tenantId}`,
      stripeSubscriptionId: 'sub_gone',
    });
    const res = await change(owner, { tier: 'business' });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('payment_provider_error');
    expect((await subscriptionOf(stack, owner.tenantId)).tier).toBe('pro');
  });

  it('changes nothing when asked for the current plan', async () => {
    const owner = await createAccount(stack);
    const calls = fake.calls.length;
    const res = await change(owner, { tier: 'free' });
    expect(res.status).toBe(200);
    expect(res.body.tier).toBe('free');
    expect(fake.calls.length).toBe(calls);
  });

  it.each([
    [{}, 'tier'],
    [{ tier: 'Gold!' }, 'tier'],
    [{ tier: 'gold' }, 'tier'],
    [{ tier: 'enterprise' }, 'tier'],
    [{ tier: 'free', addons: ['vr'] }, 'addons'],
    [{ tier: 'pro', addons: ['vr'] }, 'addons'],
    [{ tier: 'pro', addons: 'vr' }, 'addons'],
    [{ tier: 'pro', seats: 3 }, 'seats'],
  ])('answers 400 validation_failed to %j', async (body, field) => {
    const { owner } = await paying('starter');
    const res = await change(owner, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('refuses members without billing.manage', async () => {
    const { owner } = await paying('pro');
    const member = await addMember(stack, owner, 'member');
    const res = await change(member, { tier: 'business' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission_denied');
    expect((await subscriptionOf(stack, owner.tenantId)).tier).toBe('pro');
  });

  it('answers 503 for paid targets without STRIPE_SECRET_KEY', async () => {
    const bare = await startStack({ sharing: stack, workers: false, env: { STRIPE_SECRET_KEY: '' } });
    try {
      const owner = await createAccount(bare);
      const res = await bare.http.post('/api/subscription/change-plan').set(owner.auth).send({ tier: 'pro' });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('payment_provider_not_configured');
      expect(
        (await bare.http.post('/api/subscription/change-plan').set(owner.auth).send({ tier: 'free' })).status,
      ).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
