import type { RedisClient } from './redis';
import type { Logger } from './logger';
import type { Keyspace } from './redis';

/** What an organisation may use: the effective set of GET /api/entitlements/me. */
export interface Entitlements {
  tenantId: string;
  tier: string;
  status: string;
  modules: string[];
  limits: Record<string, number>;
  trial: { active: boolean; endsAt: string | null; modules: string[] };
  addons: string[];
  suspended: boolean;
  /** When this set stops holding by itself (a trial's end, ISO 8601); caches drop it then. Null: until a change. */
  validUntil: string | null;
}

/** Implemented by billing: computes an organisation's entitlements from its subscription. */
export type EntitlementLoader = (tenantId: string) => Promise<Entitlements>;

interface LocalEntry {
  value: Entitlements;
  at: number;
}

/** What Redis holds per tenant: the value and the global generation it was computed under. */
interface StoredEntry {
  g: string;
  v: Entitlements;
}

const ALL = '*';

/** Milliseconds the value may still be served, capped by its own validUntil. */
function remainingMs(value: Entitlements, capMs: number, now = Date.now()): number {
  return value.validUntil ? Math.min(capMs, Date.parse(value.validUntil) - now) : capMs;
}

/**
 * Entitlements behind two cache layers:
 *  - Redis, shared by every dyno, TTL 5 min (the spec's number);
 *  - a small in-process memo in front of it, so a gated request costs no extra Redis round trip.
 * A mutation calls `invalidate`: the Redis key is deleted, a generation counter bumped and a pub/sub message
 * sent; every dyno drops its memo on the message. A change that touches many organisations at once (a tier's
 * entitlements) calls `invalidateAll`, which bumps a global generation instead of touching every key.
 * A memo entry also lives at most `localTtlMs`, which bounds staleness to well under the spec's 15 s even if a
 * message were lost. Loads that started before an invalidation never write their (possibly stale) result
 * back, in Redis (generation checks) or locally (epochs). An entry never outlives its `validUntil`, so a
 * trial ends to the millisecond on every dyno without anyone invalidating.
 */
export class EntitlementCache {
  private readonly local = new Map<string, LocalEntry>();
  private readonly epochs = new Map<string, number>();
  private allEpoch = 0;
  private readonly inflight = new Map<string, Promise<Entitlements>>();
  private readonly listeners = new Set<(tenantId: string) => void>();
  private readonly channel: string;
  private readonly globalGenKey: string;

  constructor(
    private readonly deps: {
      redis: RedisClient;
      subscriber: RedisClient;
      key: Keyspace;
      loader: EntitlementLoader;
      logger: Logger;
      ttlSeconds: number;
      localTtlMs?: number;
    },
  ) {
    this.channel = deps.key('entitlements', 'invalidated');
    this.globalGenKey = deps.key('entitlements', 'gen');
  }

  private get localTtlMs(): number {
    return this.deps.localTtlMs ?? 5000;
  }

  /** Starts listening for invalidations from other dyno processes. */
  async listen(): Promise<void> {
    const { subscriber, logger } = this.deps;
    subscriber.on('message', (channel: string, tenantId: string) => {
      if (channel !== this.channel) return;
      if (tenantId === ALL) this.forgetAll();
      else this.forget(tenantId);
      this.notify(tenantId);
    });
    // A reconnect may have missed messages: drop everything rather than trust it.
    subscriber.on('ready', () => {
      this.forgetAll();
      this.notify(ALL);
    });
    await subscriber
      .subscribe(this.channel)
      .catch((err: Error) => logger.warn({ err }, 'entitlement invalidations unavailable; relying on the memo TTL'));
  }

  /**
   * Called after an organisation's entitlements changed on any dyno (`*`: possibly every organisation's),
   * once this process has dropped what it held: open sockets re-check their module (api/ws.ts).
   */
  onInvalidated(listener: (tenantId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(tenantId: string): void {
    for (const listener of this.listeners) listener(tenantId);
  }

  async get(tenantId: string): Promise<Entitlements> {
    const hit = this.local.get(tenantId);
    if (hit && remainingMs(hit.value, this.localTtlMs - (Date.now() - hit.at)) > 0) return hit.value;
    let pending = this.inflight.get(tenantId);
    if (!pending) {
      const load: Promise<Entitlements> = this.fetch(tenantId).finally(() => {
        if (this.inflight.get(tenantId) === load) this.inflight.delete(tenantId);
      });
      this.inflight.set(tenantId, load);
      pending = load;
    }
    return pending;
  }

  /** One organisation's entitlements changed (its subscription). */
  async invalidate(tenantId: string): Promise<void> {
    const { redis, key } = this.deps;
    this.forget(tenantId);
    await redis
      .multi()
      .incr(key('entitlements', 'gen', tenantId))
      .del(key('entitlements', tenantId))
      .publish(this.channel, tenantId)
      .exec();
  }

  /** Entitlements of many organisations changed at once (a tier's modules or limits): every entry is dropped. */
  async invalidateAll(): Promise<void> {
    this.forgetAll();
    await this.deps.redis.multi().incr(this.globalGenKey).publish(this.channel, ALL).exec();
  }

  private forget(tenantId: string): void {
    this.local.delete(tenantId);
    // A load already under way may have read the old state: later callers must not join it.
    this.inflight.delete(tenantId);
    this.epochs.set(tenantId, (this.epochs.get(tenantId) ?? 0) + 1);
  }

  private forgetAll(): void {
    this.local.clear();
    this.inflight.clear();
    this.allEpoch++;
  }

  private async fetch(tenantId: string): Promise<Entitlements> {
    const { redis, key, loader, ttlSeconds } = this.deps;
    const epoch = this.epochs.get(tenantId) ?? 0;
    const allEpoch = this.allEpoch;
    const entryKey = key('entitlements', tenantId);
    const genKey = key('entitlements', 'gen', tenantId);
    const [cached, generation, globalGeneration] = await redis.mget(entryKey, genKey, this.globalGenKey);
    const stored = cached ? (JSON.parse(cached) as StoredEntry) : null;
    let value: Entitlements;
    if (stored && stored.g === (globalGeneration ?? '') && remainingMs(stored.v, 1) > 0) {
      value = stored.v;
    } else {
      value = await loader(tenantId);
      const ttlMs = remainingMs(value, ttlSeconds * 1000);
      // Write back only if no invalidation happened while loading, and only while the value still holds.
      if (ttlMs > 0) {
        const entry: StoredEntry = { g: globalGeneration ?? '', v: value };
        await redis.eval(
          SET_IF_GENERATIONS,
          3,
          entryKey,
          genKey,
          this.globalGenKey,
          generation ?? '',
          globalGeneration ?? '',
          JSON.stringify(entry),
          Math.ceil(ttlMs),
        );
      }
    }
    if ((this.epochs.get(tenantId) ?? 0) === epoch && this.allEpoch === allEpoch) {
      // Bounded: a full memo starts over (entries are tiny and reloaded from Redis in one round trip).
      if (this.local.size >= 50_000) this.local.clear();
      this.local.set(tenantId, { value, at: Date.now() });
    }
    return value;
  }
}

const SET_IF_GENERATIONS = `
local gen = redis.call('GET', KEYS[2]) or ''
local all = redis.call('GET', KEYS[3]) or ''
if gen == ARGV[1] and all == ARGV[2] then redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4]) end
return 0`;
