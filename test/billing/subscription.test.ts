import { AuditEntry } from '../../entities/platform/audit';
import { setSubscription, subscriptionOf } from '../support/billing';
import { addMember, createAccount, type Account } from '../support/factories';
import { startStack, TEST_INTERNAL_SECRET, type TestStack } from '../support/stack';

const DAY_MS = 86_400_000;

/** GET /api/subscription, the trial routes, the administrators' edit and the internal list of trials. */
describe('subscription and trial', () => {
  let stack: TestStack;
  let admin: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false, env: { TRIAL_DAYS: '14' } });
    admin = await createAccount(stack, { platformAdmin: true });
  });
  afterAll(() => stack.close());

  describe('GET /api/subscription', () => {
    it("shows the owner their organisation's subscription, and nobody else's", async () => {
      const a = await createAccount(stack);
      const b = await createAccount(stack, { tier: 'pro' });
      const res = await stack.http.get('/api/subscription').set(a.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        tenantId: a.tenantId,
        tier: 'free',
        status: 'active',
        addons: [],
        trial: { active: false, used: false, startedAt: null, endsAt: null, modules: [] },
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
        billingAccount: false,
        paid: false,
        updatedAt: expect.any(String),
      });
      expect((await stack.http.get('/api/subscription').set(b.auth)).body).toMatchObject({
        tenantId: b.tenantId,
        tier: 'pro',
      });
    });

    it('refuses members (no billing.read) and anonymous callers', async () => {
      const owner = await createAccount(stack);
      const member = await addMember(stack, owner, 'member');
      const res = await stack.http.get('/api/subscription').set(member.auth);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('permission_denied');
      expect((await stack.http.get('/api/subscription')).status).toBe(401);
      const admin = await addMember(stack, owner, 'admin');
      expect((await stack.http.get('/api/subscription').set(admin.auth)).status).toBe(200);
    });
  });

  describe('POST /api/subscription/start-trial', () => {
    it('starts a TRIAL_DAYS trial of every module the organisation lacks by default, audited', async () => {
      const owner = await createAccount(stack);
      const before = Date.now();
      const res = await stack.http.post('/api/subscription/start-trial').set(owner.auth).send({});
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        tier: 'free',
        status: 'trialing',
        trial: { active: true, used: true, modules: ['rh', 'vr'] },
      });
      const endsAt = Date.parse(res.body.trial.endsAt);
      expect(endsAt - Date.parse(res.body.trial.startedAt)).toBe(14 * DAY_MS);
      expect(endsAt).toBeGreaterThanOrEqual(before + 14 * DAY_MS);
      const me = await stack.http.get('/api/entitlements/me').set(owner.auth);
      expect(me.body).toMatchObject({
        modules: ['cloud', 'core', 'knowledge', 'rh', 'vr'],
        validUntil: res.body.trial.endsAt,
      });
      const entry = await stack.services.orm.em
        .fork()
        .findOne(AuditEntry, { tenantId: owner.tenantId, action: 'billing.trial_started' });
      expect(entry).toMatchObject({ actorId: owner.user.id, data: { modules: ['rh', 'vr'] } });
    });

    it('unlocks only the chosen modules, once per organisation', async () => {
      const owner = await createAccount(stack, { tier: 'pro' });
      const res = await stack.http
        .post('/api/subscription/start-trial')
        .set(owner.auth)
        .send({ modules: ['rh'] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ tier: 'pro', trial: { modules: ['rh'] } });
      const again = await stack.http
        .post('/api/subscription/start-trial')
        .set(owner.auth)
        .send({ modules: ['rh'] });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('trial_already_used');
    });

    it('answers 409 nothing_to_trial when the plan includes every module', async () => {
      const owner = await createAccount(stack, { tier: 'business' });
      const res = await stack.http.post('/api/subscription/start-trial').set(owner.auth).send({});
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('nothing_to_trial');
      expect((await subscriptionOf(stack, owner.tenantId)).trialStartedAt).toBeNull();
    });

    it.each([
      [{ modules: ['core'] }, 'modules'],
      [{ modules: ['teleport'] }, 'modules'],
      [{ modules: [] }, 'modules'],
      [{ modules: 'vr' }, 'modules'],
      [{ modules: ['vr', 'vr'] }, 'modules'],
      [{ days: 90 }, 'days'],
    ])('answers 400 validation_failed to %j and starts nothing', async (body, field) => {
      const owner = await createAccount(stack);
      const res = await stack.http.post('/api/subscription/start-trial').set(owner.auth).send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect((await subscriptionOf(stack, owner.tenantId)).trialStartedAt).toBeNull();
    });

    it('refuses members without billing.manage', async () => {
      const owner = await createAccount(stack);
      const member = await addMember(stack, owner, 'member');
      const res = await stack.http.post('/api/subscription/start-trial').set(member.auth).send({});
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('permission_denied');
    });
  });

  describe('PUT /api/subscription/trial-modules', () => {
    it('changes what the running trial unlocks, at once', async () => {
      const owner = await createAccount(stack);
      await stack.http
        .post('/api/subscription/start-trial')
        .set(owner.auth)
        .send({ modules: ['vr'] });
      const res = await stack.http
        .put('/api/subscription/trial-modules')
        .set(owner.auth)
        .send({ modules: ['rh'] });
      expect(res.status).toBe(200);
      expect(res.body.trial).toMatchObject({ active: true, modules: ['rh'] });
      expect((await stack.http.get('/api/entitlements/me').set(owner.auth)).body.modules).toEqual([
        'cloud',
        'core',
        'knowledge',
        'rh',
      ]);
    });

    it('answers 409 trial_not_active without a running trial', async () => {
      const owner = await createAccount(stack);
      const res = await stack.http
        .put('/api/subscription/trial-modules')
        .set(owner.auth)
        .send({ modules: ['vr'] });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('trial_not_active');
      await setSubscription(stack, owner.tenantId, {
        trialStartedAt: new Date(Date.now() - 20 * DAY_MS),
        trialEndsAt: new Date(Date.now() - 6 * DAY_MS),
        trialModules: ['vr'],
      });
      expect(
        (
          await stack.http
            .put('/api/subscription/trial-modules')
            .set(owner.auth)
            .send({ modules: ['rh'] })
        ).body.code,
      ).toBe('trial_not_active');
    });

    it.each([[{ modules: ['knowledge'] }], [{ modules: [] }], [{}], [{ modules: ['vr'], extra: 1 }]])(
      'answers 400 to %j',
      async (body) => {
        const owner = await createAccount(stack, { trialModules: ['vr'] });
        const res = await stack.http.put('/api/subscription/trial-modules').set(owner.auth).send(body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('validation_failed');
        expect((await subscriptionOf(stack, owner.tenantId)).trialModules).toEqual(['vr']);
      },
    );

    it('refuses members without billing.manage', async () => {
      const owner = await createAccount(stack, { trialModules: ['vr'] });
      const member = await addMember(stack, owner, 'member');
      expect(
        (
          await stack.http
            .put('/api/subscription/trial-modules')
            .set(member.auth)
            .send({ modules: ['rh'] })
        ).status,
      ).toBe(403);
    });
  });

  describe('PUT /api/subscription/{tenantId} (platform administrators)', () => {
    it("edits any organisation's subscription and its gating at once, audited", async () => {
      const owner = await createAccount(stack);
      expect((await stack.http.get('/api/entitlements/me').set(owner.auth)).body.modules).not.toContain('rh');
      const endsAt = new Date(Date.now() + 30 * DAY_MS).toISOString();
      const res = await stack.http
        .put(`/api/subscription/${owner.tenantId}`)
        .set(admin.auth)
        .send({ tier: 'enterprise', addons: [], trialEndsAt: endsAt, trialModules: ['vr'] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        tenantId: owner.tenantId,
        tier: 'enterprise',
        status: 'trialing',
        trial: { active: true, used: true, endsAt, modules: ['vr'] },
      });
      expect((await stack.http.get('/api/entitlements/me').set(owner.auth)).body).toMatchObject({
        tier: 'enterprise',
        modules: expect.arrayContaining(['rh', 'vr']),
      });

      const ended = await stack.http
        .put(`/api/subscription/${owner.tenantId}`)
        .set(admin.auth)
        .send({ trialEndsAt: null, status: 'past_due' });
      expect(ended.body).toMatchObject({ status: 'past_due', trial: { active: false, endsAt: null } });
      const entries = await stack.services.orm.em
        .fork()
        .find(AuditEntry, { tenantId: owner.tenantId, action: 'billing.subscription_edited' });
      expect(entries).toHaveLength(2);
      expect(entries[0].actorId).toBe(admin.user.id);
    });

    it('refuses non-administrators, owners included: an organisation cannot change another one', async () => {
      const a = await createAccount(stack);
      const b = await createAccount(stack);
      const res = await stack.http.put(`/api/subscription/${b.tenantId}`).set(a.auth).send({ tier: 'business' });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('platform_admin_required');
      const own = await stack.http.put(`/api/subscription/${a.tenantId}`).set(a.auth).send({ tier: 'business' });
      expect(own.status).toBe(403);
      expect((await subscriptionOf(stack, b.tenantId)).tier).toBe('free');
      expect((await subscriptionOf(stack, a.tenantId)).tier).toBe('free');
    });

    it('answers 404 for an unknown organisation', async () => {
      const res = await stack.http
        .put('/api/subscription/0190c1d2-0000-7000-8000-000000000404')
        .set(admin.auth)
        .send({ tier: 'pro' });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    });

    it.each([
      ['not-a-uuid', { tier: 'pro' }, 'tenantId'],
      [null, { tier: 'gold' }, 'tier'],
      [null, { status: 'happy' }, 'status'],
      [null, { addons: ['teleport'] }, 'addons'],
      [null, { trialEndsAt: 'tomorrow' }, 'trialEndsAt'],
      [null, { tenantId: 'x' }, 'tenantId'],
    ])('answers 400 validation_failed (tenant %s, body %j)', async (tenant, body, field) => {
      const owner = await createAccount(stack);
      const res = await stack.http
        .put(`/api/subscription/${tenant ?? owner.tenantId}`)
        .set(admin.auth)
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });
  });

  describe('GET /internal/subscriptions/trialing', () => {
    it('lists running trials page by page behind X-Internal-Secret', async () => {
      const x = await createAccount(stack, { trialModules: ['vr'] });
      const y = await createAccount(stack, { trialModules: ['rh'] });
      const over = await createAccount(stack);
      await setSubscription(stack, over.tenantId, {
        trialStartedAt: new Date(Date.now() - 20 * DAY_MS),
        trialEndsAt: new Date(Date.now() - DAY_MS),
      });
      const seen: { tenantId: string; trialModules: string[] }[] = [];
      let cursor: string | null = null;
      do {
        const res = await stack.http
          .get('/internal/subscriptions/trialing')
          .set('X-Internal-Secret', TEST_INTERNAL_SECRET)
          .query({ limit: 1, ...(cursor ? { cursor } : {}) });
        expect(res.status).toBe(200);
        expect(res.body.items.length).toBeLessThanOrEqual(1);
        seen.push(...res.body.items);
        cursor = res.body.nextCursor;
      } while (cursor);
      const ids = seen.map((t) => t.tenantId);
      expect(ids).toEqual(expect.arrayContaining([x.tenantId, y.tenantId]));
      expect(ids).not.toContain(over.tenantId);
      expect(seen.find((t) => t.tenantId === x.tenantId)).toMatchObject({
        tier: 'free',
        status: 'trialing',
        trialModules: ['vr'],
        trialEndsAt: expect.any(String),
      });
    });

    it('refuses calls without the right secret (fail closed) and bad paging', async () => {
      expect((await stack.http.get('/internal/subscriptions/trialing')).body.code).toBe('internal_secret_invalid');
      expect((await stack.http.get('/internal/subscriptions/trialing').set('X-Internal-Secret', 'nope')).status).toBe(
        403,
      );
      const bad = await stack.http
        .get('/internal/subscriptions/trialing')
        .set('X-Internal-Secret', TEST_INTERNAL_SECRET)
        .query({ limit: 500 });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].field).toBe('limit');
    });
  });
});
