import { addMember, createAccount, type Account } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';
import { createRoom } from '../support/vr';
import { eventually } from '../support/wait';

const GB = 1024 ** 3;
/** The free tier as stored (vrRooms 0: no cap) and as answered (null). */
const freeLimits = { cloudQuotaBytes: 5 * GB, seats: 3, vrRooms: 0 };
const freeLimitsShown = { ...freeLimits, vrRooms: null };

/** GET /api/entitlements/me, and the administrators' per-tier view and edit (propagated to every instance). */
describe('entitlements', () => {
  let a: TestStack;
  let b: TestStack;
  let admin: Account;
  beforeAll(async () => {
    a = await startStack({ workers: false });
    b = await startStack({ sharing: a, workers: false });
    admin = await createAccount(a, { platformAdmin: true });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("gives any member their organisation's effective entitlements", async () => {
    const owner = await createAccount(a, { tier: 'starter' });
    await a.http
      .put(`/api/subscription/${owner.tenantId}`)
      .set(admin.auth)
      .send({ addons: ['vr'] });
    const member = await addMember(a, owner, 'member');
    const res = await a.http.get('/api/entitlements/me').set(member.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tenantId: owner.tenantId,
      tier: 'starter',
      status: 'active',
      modules: ['cloud', 'core', 'knowledge', 'vr'],
      limits: { cloudQuotaBytes: 50 * GB, seats: 10, vrRooms: null },
      trial: { active: false, endsAt: null, modules: [] },
      addons: ['vr'],
      suspended: false,
      validUntil: null,
    });
    expect((await a.http.get('/api/entitlements/me')).status).toBe(401);
  });

  it('lists every tier for administrators only', async () => {
    const res = await a.http.get('/api/entitlements').set(admin.auth);
    expect(res.status).toBe(200);
    expect(res.body.items.map((t: { tier: string }) => t.tier)).toEqual([
      'free',
      'starter',
      'pro',
      'business',
      'enterprise',
    ]);
    expect(res.body.items[0]).toEqual({
      tier: 'free',
      name: 'Free',
      modules: ['core', 'knowledge', 'cloud'],
      limits: freeLimitsShown,
    });
    const owner = await createAccount(a);
    const refused = await a.http.get('/api/entitlements').set(owner.auth);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('platform_admin_required');
  });

  it('changes a tier for all its organisations at once, on every instance', async () => {
    const free1 = await createAccount(a);
    const free2 = await createAccount(a);
    const pro = await createAccount(a, { tier: 'pro' });
    // Every instance has the old entitlements cached.
    for (const stack of [a, b])
      for (const who of [free1, free2, pro]) await stack.http.get('/api/entitlements/me').set(who.auth);

    const res = await a.http
      .put('/api/entitlements/free')
      .set(admin.auth)
      .send({ modules: ['core', 'knowledge', 'cloud', 'vr'], limits: { ...freeLimits, vrRooms: 1 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tier: 'free',
      name: 'Free',
      modules: ['cloud', 'core', 'knowledge', 'vr'],
      limits: { ...freeLimits, vrRooms: 1 },
    });
    try {
      for (const who of [free1, free2]) {
        await eventually(
          async () => {
            const me = await b.http.get('/api/entitlements/me').set(who.auth);
            return me.body.modules.includes('vr') && me.body.limits.vrRooms === 1;
          },
          { timeoutMs: 5000, intervalMs: 20, what: 'the new free tier on instance B' },
        );
        expect((await a.http.get('/api/entitlements/me').set(who.auth)).body.modules).toContain('vr');
      }
      expect((await b.http.get('/api/entitlements/me').set(pro.auth)).body.tier).toBe('pro');
    } finally {
      await a.http
        .put('/api/entitlements/free')
        .set(admin.auth)
        .send({ modules: ['core', 'knowledge', 'cloud'], limits: freeLimits });
    }
    await eventually(
      async () => !(await b.http.get('/api/entitlements/me').set(free1.auth)).body.modules.includes('vr'),
      { timeoutMs: 5000, intervalMs: 20, what: 'the restored free tier' },
    );
  });

  it('shows a vrRooms limit of 0 as null, no cap: a vr trial on the free tier creates rooms; null is taken back as no cap', async () => {
    const trial = await createAccount(a, { trialModules: ['vr'] });
    const me = (await a.http.get('/api/entitlements/me').set(trial.auth).expect(200)).body;
    expect({ modules: me.modules, trial: me.trial.active, limits: me.limits }).toEqual({
      modules: ['cloud', 'core', 'knowledge', 'vr'],
      trial: true,
      limits: freeLimitsShown,
    });
    // No cap indeed: more rooms than "0".
    for (const name of ['One', 'Two']) await createRoom(a, trial, { name }, { open: false });
    const plans = (await a.http.get('/api/plans').expect(200)).body.items as { tier: string; limits: object }[];
    expect(plans.find((p) => p.tier === 'free')?.limits).toEqual(freeLimitsShown);
    expect(plans.find((p) => p.tier === 'pro')?.limits).toMatchObject({ vrRooms: 20 });
    // What an administrator reads is what they may write back: null stores no cap.
    const free = (await a.http.get('/api/entitlements').set(admin.auth).expect(200)).body.items[0] as {
      modules: string[];
      limits: object;
    };
    const put = await a.http
      .put('/api/entitlements/free')
      .set(admin.auth)
      .send({ modules: free.modules, limits: free.limits });
    expect({ status: put.status, limits: put.body.limits }).toEqual({ status: 200, limits: freeLimitsShown });
    const [{ stored }] = await a.services.orm.em
      .fork()
      .execute<{ stored: unknown }[]>(
        "select entitlements->'limits'->'vrRooms' as stored from plans where tier = 'free'",
      );
    expect(stored).toBe(0);
  });

  it.each([
    ['free', { modules: ['core', 'teleport'], limits: freeLimits }, 'modules'],
    ['free', { modules: ['core'], limits: { ...freeLimits, storage: 1 } }, 'limits.storage'],
    ['free', { modules: ['core'], limits: { ...freeLimits, seats: -1 } }, 'limits.seats'],
    ['free', { modules: ['core'], limits: { ...freeLimits, seats: 2.5 } }, 'limits.seats'],
    ['free', { modules: ['core'], limits: { seats: 3, vrRooms: 0 } }, 'limits.cloudQuotaBytes'],
    ['free', { modules: ['core'] }, 'limits'],
    ['free', { limits: freeLimits }, 'modules'],
    ['Free Tier', { modules: ['core'], limits: freeLimits }, 'tier'],
  ])('answers 400 validation_failed for tier %s and %j', async (tier, body, field) => {
    const res = await a.http
      .put(`/api/entitlements/${encodeURIComponent(tier)}`)
      .set(admin.auth)
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('answers 404 for an unknown tier and 403 for non-administrators', async () => {
    const missing = await a.http
      .put('/api/entitlements/platinum')
      .set(admin.auth)
      .send({ modules: ['core'], limits: freeLimits });
    expect(missing.status).toBe(404);
    const owner = await createAccount(a);
    const refused = await a.http
      .put('/api/entitlements/free')
      .set(owner.auth)
      .send({ modules: ['core', 'vr'], limits: freeLimits });
    expect(refused.status).toBe(403);
    expect((await a.http.get('/api/entitlements/me').set(owner.auth)).body.modules).not.toContain('vr');
  });
});
