import { linkPrices, unlinkPrices } from '../support/billing';
import { addMember, createAccount, type Account } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';

/** GET /api/plans, PUT /api/plans/{tier}, GET /api/plans/stripe-status. */
describe('plans', () => {
  let stack: TestStack;
  let admin: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    admin = await createAccount(stack, { platformAdmin: true });
  });
  afterAll(() => stack.close());

  it('lists the public catalogue to anyone, and hidden tiers to administrators only', async () => {
    const anonymous = await stack.http.get('/api/plans');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.items.map((p: { tier: string }) => p.tier)).toEqual(['free', 'starter', 'pro', 'business']);
    expect(anonymous.body.items[2]).toMatchObject({
      tier: 'pro',
      name: 'Pro',
      priceCents: 4900,
      currency: 'EUR',
      public: true,
      modules: ['core', 'knowledge', 'cloud', 'vr'],
      limits: { vrRooms: 20 },
    });
    const owner = await createAccount(stack);
    expect((await stack.http.get('/api/plans').set(owner.auth)).body.items).toHaveLength(4);
    expect((await stack.http.get('/api/plans').set('Authorization', 'Bearer garbage')).body.items).toHaveLength(4);
    const all = await stack.http.get('/api/plans').set(admin.auth);
    expect(all.body.items.map((p: { tier: string }) => p.tier)).toEqual([
      'free',
      'starter',
      'pro',
      'business',
      'enterprise',
    ]);
  });

  it('lets administrators edit a tier (fields left out are kept), audited in the catalogue', async () => {
    const res = await stack.http
      .put('/api/plans/starter')
      .set(admin.auth)
      .send({ name: 'Starter+', priceCents: 2400, currency: 'USD', stripePriceId: 'price_starter_usd', sortOrder: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      tier: 'starter',
      name: 'Starter+',
      description: 'For small teams',
      priceCents: 2400,
      currency: 'USD',
      stripePriceId: 'price_starter_usd',
      public: true,
    });
    const hidden = await stack.http
      .put('/api/plans/starter')
      .set(admin.auth)
      .send({ public: false, stripePriceId: null });
    expect(hidden.body).toMatchObject({ public: false, stripePriceId: null, name: 'Starter+' });
    expect((await stack.http.get('/api/plans')).body.items.map((p: { tier: string }) => p.tier)).not.toContain(
      'starter',
    );
    await stack.http
      .put('/api/plans/starter')
      .set(admin.auth)
      .send({ public: true, name: 'Starter', priceCents: 1900, currency: 'EUR' });
  });

  it('keeps Stripe prices one to one with tiers and add-ons (409 stripe_price_in_use)', async () => {
    await linkPrices(stack);
    try {
      const taken = await stack.http.put('/api/plans/business').set(admin.auth).send({ stripePriceId: 'price_pro' });
      expect(taken.status).toBe(409);
      expect(taken.body.code).toBe('stripe_price_in_use');
      const addon = await stack.http
        .put('/api/plans/business')
        .set(admin.auth)
        .send({ stripePriceId: 'price_addon_vr' });
      expect(addon.body.code).toBe('stripe_price_in_use');
      expect((await stack.http.put('/api/plans/pro').set(admin.auth).send({ stripePriceId: 'price_pro' })).status).toBe(
        200,
      );
    } finally {
      await unlinkPrices(stack);
    }
  });

  it.each([
    ['free', { priceCents: 100 }, 'priceCents'],
    ['free', { stripePriceId: 'price_free' }, 'stripePriceId'],
    ['pro', { priceCents: -1 }, 'priceCents'],
    ['pro', { currency: 'euros' }, 'currency'],
    ['pro', { name: '' }, 'name'],
    ['pro', { stripePriceId: 'price with spaces' }, 'stripePriceId'],
    ['pro', { entitlements: { modules: [] } }, 'entitlements'],
    ['PRO!', { name: 'x' }, 'tier'],
  ])('answers 400 validation_failed for %s with %j', async (tier, body, field) => {
    const res = await stack.http
      .put(`/api/plans/${encodeURIComponent(tier)}`)
      .set(admin.auth)
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('answers 404 for an unknown tier and 403 to non-administrators', async () => {
    expect((await stack.http.put('/api/plans/platinum').set(admin.auth).send({ name: 'x' })).status).toBe(404);
    const owner = await createAccount(stack);
    const res = await stack.http.put('/api/plans/pro').set(owner.auth).send({ priceCents: 1 });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('platform_admin_required');
  });

  describe('GET /api/plans/stripe-status', () => {
    it('says payments are not configured and what lacks a price', async () => {
      const owner = await createAccount(stack);
      const res = await stack.http.get('/api/plans/stripe-status').set(owner.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        configured: false,
        webhookSecretSet: false,
        mode: null,
        tiersWithoutPrice: ['starter', 'pro', 'business'],
        addonsWithoutPrice: ['vr', 'rh'],
      });
    });

    it('reports a configured test account with every price linked', async () => {
      const configured = await startStack({
        sharing: stack,
        workers: false,
        env: { STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_1' },
      });
      try {
        await linkPrices(configured);
        const owner = await createAccount(configured);
        const res = await configured.http.get('/api/plans/stripe-status').set(owner.auth);
        expect(res.body).toEqual({
          configured: true,
          webhookSecretSet: true,
          mode: 'test',
          tiersWithoutPrice: [],
          addonsWithoutPrice: [],
        });
      } finally {
        await unlinkPrices(stack);
        await configured.close();
      }
    });

    it('is for owners and administrators of the organisation only', async () => {
      const owner = await createAccount(stack);
      const member = await addMember(stack, owner, 'member');
      const res = await stack.http.get('/api/plans/stripe-status').set(member.auth);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('permission_denied');
    });
  });
});
