import { schedules } from '../../cron/schedules';
import { trialExpiryQueue } from '../../queues/billing';
import { finishedJob, subscriptionOf } from '../support/billing';
import { createAccount, type Account } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

/**
 * Module gating end to end, through a real `module: 'vr'` route (GET /runtime/rooms of the VR module) on two
 * app instances sharing PostgreSQL and Redis: a trial opens it everywhere at once, and its end closes it
 * everywhere exactly on time, long before the 5-minute cache TTL.
 */
describe('gating follows the subscription on every instance', () => {
  let a: TestStack;
  let b: TestStack;
  let owner: Account;
  let admin: Account;
  beforeAll(async () => {
    a = await startStack();
    b = await startStack({ sharing: a, workers: false });
    owner = await createAccount(a);
    admin = await createAccount(a, { platformAdmin: true });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const rooms = (stack: TestStack) => stack.http.get('/runtime/rooms').set(owner.auth);

  it('refuses a free organisation the vr module on both instances', async () => {
    for (const stack of [a, b]) {
      const res = await rooms(stack);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('module_not_entitled');
      const me = await stack.http.get('/api/entitlements/me').set(owner.auth);
      expect(me.body).toMatchObject({ tier: 'free', modules: ['cloud', 'core', 'knowledge'], validUntil: null });
    }
  });

  it('opens vr on both instances right after start-trial, without waiting for the TTL', async () => {
    const started = await a.http
      .post('/api/subscription/start-trial')
      .set(owner.auth)
      .send({ modules: ['vr'] });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      tier: 'free',
      status: 'trialing',
      trial: { active: true, used: true, modules: ['vr'] },
    });
    const t0 = Date.now();
    expect((await rooms(a)).status).toBe(200);
    // Instance B had cached the free entitlements: the pub/sub invalidation reaches it within milliseconds.
    await eventually(async () => (await rooms(b)).status === 200, {
      timeoutMs: 5000,
      intervalMs: 20,
      what: 'vr allowed on instance B',
    });
    expect(Date.now() - t0).toBeLessThan(5000);
    const me = await b.http.get('/api/entitlements/me').set(owner.auth);
    expect(me.body).toMatchObject({
      modules: ['cloud', 'core', 'knowledge', 'vr'],
      trial: { active: true, modules: ['vr'] },
      validUntil: started.body.trial.endsAt,
    });
  });

  it('closes vr on both instances exactly when the trial ends, inside the cache TTL', async () => {
    const endsAt = new Date(Date.now() + 2500);
    const edit = await a.http
      .put(`/api/subscription/${owner.tenantId}`)
      .set(admin.auth)
      .send({ trialEndsAt: endsAt.toISOString() });
    expect(edit.status).toBe(200);
    // Both instances cache the running trial again (memo and Redis)...
    await eventually(async () => (await rooms(a)).status === 200 && (await rooms(b)).status === 200, {
      timeoutMs: 2000,
      intervalMs: 20,
      what: 'vr allowed on both',
    });
    // ...and drop it at its end by themselves: nothing invalidates the cache here.
    const closedAt = await Promise.all(
      [a, b].map((stack) =>
        eventually(async () => ((await rooms(stack)).status === 403 ? Date.now() : 0), {
          timeoutMs: 6000,
          intervalMs: 25,
          what: 'vr refused after the trial',
        }),
      ),
    );
    for (const at of closedAt) {
      expect(at).toBeGreaterThanOrEqual(endsAt.getTime());
      expect(at - endsAt.getTime()).toBeLessThan(1000);
    }
    const res = await rooms(b);
    expect(res.body.code).toBe('module_not_entitled');
  });

  it('settles the status with the clock job: trialing -> active, once', async () => {
    expect((await subscriptionOf(a, owner.tenantId)).status).toBe('trialing');
    const schedule = schedules.find((s) => s.name === 'trial-expiry')!;
    const slot = `trial-expiry.${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}`;
    await schedule.enqueue(a.services, slot);
    await schedule.enqueue(a.services, slot); // a second clock in the same minute enqueues nothing more
    const job = await finishedJob(a, trialExpiryQueue, slot);
    expect(await job.getState()).toBe('completed');
    expect(job.returnvalue).toEqual({ ended: 1 });
    const sub = await a.http.get('/api/subscription').set(owner.auth);
    expect(sub.body).toMatchObject({ status: 'active', trial: { active: false, used: true } });
    const again = await a.http
      .post('/api/subscription/start-trial')
      .set(owner.auth)
      .send({ modules: ['vr'] });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('trial_already_used');
  });
});
