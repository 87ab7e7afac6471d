import { EntitlementCache, type Entitlements } from '../../lib/entitlementCache';
import { closeRedis, createSubscriber, keyspace, type RedisClient } from '../../lib/redis';
import { startStack, type TestStack } from '../support/stack';
import { scaled } from '../support/timeScale';
import { eventually } from '../support/wait';

const TENANT = '0190c1d2-0000-7000-8000-00000000cace';

const entitlements = (modules: string[], validUntil: Date | null = null): Entitlements => ({
  tenantId: TENANT,
  tier: 'free',
  status: 'active',
  modules,
  limits: {},
  trial: { active: false, endsAt: null, modules: [] },
  addons: [],
  suspended: false,
  validUntil: validUntil?.toISOString() ?? null,
});

/** The shared entitlement cache (lib/entitlementCache.ts) with a loader the test controls, on real Redis. */
describe('entitlement cache', () => {
  let stack: TestStack;
  const subscribers: RedisClient[] = [];
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(async () => {
    await Promise.all(subscribers.map(closeRedis));
    await stack.close();
  });

  /** A cache as one dyno holds it; `load` is what the database would answer now. */
  async function dyno(namespace: string, load: () => Promise<Entitlements>) {
    const subscriber = createSubscriber(stack.config);
    subscribers.push(subscriber);
    const calls = { n: 0 };
    const cache = new EntitlementCache({
      redis: stack.services.redis,
      subscriber,
      key: keyspace(`${stack.config.REDIS_NAMESPACE}:${namespace}`),
      logger: stack.services.logger,
      ttlSeconds: 300,
      loader: () => {
        calls.n++;
        return load();
      },
    });
    await cache.listen();
    return { cache, calls };
  }

  it('never keeps a load that raced an invalidation', async () => {
    let release!: (e: Entitlements) => void;
    let current = entitlements(['core']);
    const { cache, calls } = await dyno('race', () =>
      calls.n === 1 ? new Promise((resolve) => (release = resolve)) : Promise.resolve(current),
    );
    const slow = cache.get(TENANT);
    await eventually(() => calls.n === 1, { what: 'the first load to start' });
    current = entitlements(['core', 'vr']);
    await cache.invalidate(TENANT);
    release(entitlements(['core'])); // the stale answer of the first load
    expect((await slow).modules).toEqual(['core']);
    expect((await cache.get(TENANT)).modules).toEqual(['core', 'vr']);
    expect(calls.n).toBe(2);
    expect((await cache.get(TENANT)).modules).toEqual(['core', 'vr']);
    expect(calls.n).toBe(2);
  });

  it('drops an entry at its validUntil, in the memo and in Redis', async () => {
    // Valid long enough for both reads below on a busy machine, then waited out.
    let until = new Date(Date.now() + scaled(1000));
    const { cache, calls } = await dyno('expiry', async () => entitlements(['core', 'vr'], until));
    const other = await dyno('expiry', async () => entitlements(['core', 'vr'], until));
    await cache.get(TENANT);
    await other.cache.get(TENANT); // served from Redis
    expect(calls.n + other.calls.n).toBe(1);
    await eventually(() => Date.now() > until.getTime() + 5);
    until = new Date(Date.now() + 60_000);
    await cache.get(TENANT);
    expect(calls.n).toBe(2);
    // The other dyno's memo expired too; Redis serves it the fresh entry written by the second load.
    expect((await other.cache.get(TENANT)).validUntil).toBe(until.toISOString());
    expect(other.calls.n).toBe(0);
  });

  it('invalidateAll reaches every dyno at once', async () => {
    let modules = ['core'];
    const a = await dyno('all', async () => entitlements(modules));
    const b = await dyno('all', async () => entitlements(modules));
    expect((await b.cache.get(TENANT)).modules).toEqual(['core']);
    modules = ['core', 'rh'];
    await a.cache.invalidateAll();
    await eventually(async () => (await b.cache.get(TENANT)).modules.includes('rh'), {
      timeoutMs: 2000,
      intervalMs: 10,
      what: 'the global invalidation on dyno B',
    });
  });
});
