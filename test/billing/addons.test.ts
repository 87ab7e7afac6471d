import { setSubscription } from '../support/billing';
import { addMember, createAccount, type Account } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';

/** GET /api/addons, /api/addons/all, POST /api/addons, PUT and DELETE /api/addons/{moduleKey}. */
describe('add-ons', () => {
  let stack: TestStack;
  let admin: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    admin = await createAccount(stack, { platformAdmin: true });
  });
  afterAll(() => stack.close());

  it('shows any member the add-ons on sale and which ones the organisation holds', async () => {
    const owner = await createAccount(stack, { tier: 'starter' });
    await setSubscription(stack, owner.tenantId, { addons: ['rh'] });
    const member = await addMember(stack, owner, 'member');
    const res = await stack.http.get('/api/addons').set(member.auth);
    expect(res.status).toBe(200);
    expect(res.body.owned).toEqual(['rh']);
    expect(res.body.items).toEqual([
      {
        moduleKey: 'vr',
        name: 'VR training',
        description: expect.any(String),
        priceCents: 2900,
        currency: 'EUR',
        stripePriceId: null,
        active: true,
        sortOrder: 1,
        owned: false,
      },
      {
        moduleKey: 'rh',
        name: 'HR',
        description: expect.any(String),
        priceCents: 3900,
        currency: 'EUR',
        stripePriceId: null,
        active: true,
        sortOrder: 2,
        owned: true,
      },
    ]);
    expect((await stack.http.get('/api/addons')).status).toBe(401);
  });

  it('lets administrators create, edit and list add-ons; an inactive one stays with its holders', async () => {
    const created = await stack.http
      .post('/api/addons')
      .set(admin.auth)
      .send({ moduleKey: 'cloud', name: 'Extra storage', priceCents: 500, currency: 'eur', sortOrder: 3 });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe('/api/addons/cloud');
    expect(created.body).toEqual({
      moduleKey: 'cloud',
      name: 'Extra storage',
      description: '',
      priceCents: 500,
      currency: 'EUR',
      stripePriceId: null,
      active: true,
      sortOrder: 3,
    });

    const edited = await stack.http
      .put('/api/addons/cloud')
      .set(admin.auth)
      .send({ active: false, stripePriceId: 'price_cloud' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Extra storage', active: false, stripePriceId: 'price_cloud' });

    const holder = await createAccount(stack);
    await setSubscription(stack, holder.tenantId, { addons: ['cloud'] });
    const someone = await createAccount(stack);
    expect(
      (await stack.http.get('/api/addons').set(someone.auth)).body.items.map((a: { moduleKey: string }) => a.moduleKey),
    ).toEqual(['vr', 'rh']);
    expect(
      (await stack.http.get('/api/addons').set(holder.auth)).body.items.map((a: { moduleKey: string }) => a.moduleKey),
    ).toEqual(['vr', 'rh', 'cloud']);
    const all = await stack.http.get('/api/addons/all').set(admin.auth);
    expect(all.body.items.map((a: { moduleKey: string; active: boolean }) => [a.moduleKey, a.active])).toEqual([
      ['vr', true],
      ['rh', true],
      ['cloud', false],
    ]);

    const inUse = await stack.http.delete('/api/addons/cloud').set(admin.auth);
    expect(inUse.status).toBe(409);
    expect(inUse.body.code).toBe('addon_in_use');
    await setSubscription(stack, holder.tenantId, { addons: [] });
    expect((await stack.http.delete('/api/addons/cloud').set(admin.auth)).status).toBe(204);
    expect((await stack.http.delete('/api/addons/cloud').set(admin.auth)).status).toBe(404);
  });

  it('refuses a second add-on for a module and a Stripe price already used', async () => {
    const dup = await stack.http
      .post('/api/addons')
      .set(admin.auth)
      .send({ moduleKey: 'vr', name: 'VR again', priceCents: 1 });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('addon_exists');
    await stack.http.put('/api/addons/vr').set(admin.auth).send({ stripePriceId: 'price_vr_1' });
    const taken = await stack.http.put('/api/addons/rh').set(admin.auth).send({ stripePriceId: 'price_vr_1' });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('stripe_price_in_use');
    await stack.http.put('/api/addons/vr').set(admin.auth).send({ stripePriceId: null });
  });

  it.each([
    ['post', '/api/addons', { moduleKey: 'teleport', name: 'x', priceCents: 1 }, 'moduleKey'],
    ['post', '/api/addons', { moduleKey: 'core', priceCents: 1 }, 'name'],
    ['post', '/api/addons', { moduleKey: 'core', name: 'x' }, 'priceCents'],
    ['post', '/api/addons', { moduleKey: 'core', name: 'x', priceCents: 1.5 }, 'priceCents'],
    ['put', '/api/addons/vr', { currency: 'xx' }, 'currency'],
    ['put', '/api/addons/vr', { moduleKey: 'rh' }, 'moduleKey'],
    ['put', '/api/addons/teleport', { name: 'x' }, 'moduleKey'],
    ['delete', '/api/addons/teleport', undefined, 'moduleKey'],
  ] as const)('answers 400 validation_failed to %s %s %j', async (method, path, body, field) => {
    const req = stack.http[method](path).set(admin.auth);
    const res = body ? await req.send(body) : await req;
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('answers 404 for a module that is not an add-on', async () => {
    expect((await stack.http.put('/api/addons/knowledge').set(admin.auth).send({ name: 'x' })).status).toBe(404);
  });

  it('refuses non-administrators', async () => {
    const owner = await createAccount(stack);
    for (const res of [
      await stack.http.get('/api/addons/all').set(owner.auth),
      await stack.http.post('/api/addons').set(owner.auth).send({ moduleKey: 'core', name: 'x', priceCents: 1 }),
      await stack.http.put('/api/addons/vr').set(owner.auth).send({ priceCents: 1 }),
      await stack.http.delete('/api/addons/vr').set(owner.auth),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('platform_admin_required');
    }
  });
});
