import type { Redis } from 'ioredis';
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
}

/** Implemented by billing: computes an organisation's entitlements from its subscription. */
export type EntitlementLoader = (tenantId: string) => Promise<Entitlements>;

interface LocalEntry {
  value: Entitlements;
  at: number;
}

/**
 * Entitlements behind two cache layers:
 *  - Redis, shared by every dyno, TTL 5 min (the spec's number);
 *  - a small in-process memo in front of it, so a gated request costs no extra Redis round trip.
 * A mutation calls `invalidate`: the Redis key is deleted, a generation counter bumped and a pub/sub message
 * sent; every dyno drops its memo on the message. A memo entry also lives at most `localTtlMs`, which bounds
 * staleness to well under the spec's 15 s even if a message were lost. Loads that started before an
 * invalidation never write their (possibly stale) result back, in Redis (generation check) or locally (epoch).
 */
export class EntitlementCache {
  private readonly local = new Map<string, LocalEntry>();
  private readonly epochs = new Map<string, number>();
  private readonly inflight = new Map<string, Promise<Entitlements>>();
  private readonly channel: string;

  constructor(
    private readonly deps: {
      redis: Redis;
      subscriber: Redis;
      key: Keyspace;
      loader: EntitlementLoader;
      logger: Logger;
      ttlSeconds: number;
      localTtlMs?: number;
    },
  ) {
    this.channel = deps.key('entitlements', 'invalidated');
  }

  private get localTtlMs(): number {
    return this.deps.localTtlMs ?? 5000;
  }

  /** Starts listening for invalidations from other dyno processes. */
  async listen(): Promise<void> {
    const { subscriber, logger } = this.deps;
    subscriber.on('message', (channel: string, tenantId: string) => {
      if (channel === this.channel) this.forget(tenantId);
    });
    // A reconnect may have missed messages: drop everything rather than trust it.
    subscriber.on('ready', () => this.local.clear());
    await subscriber.subscribe(this.channel).catch((err: Error) => logger.warn({ err }, 'entitlement invalidations unavailable; relying on the memo TTL'));
  }

  async get(tenantId: string): Promise<Entitlements> {
    const hit = this.local.get(tenantId);
    if (hit && Date.now() - hit.at < this.localTtlMs) return hit.value;
    let pending = this.inflight.get(tenantId);
    if (!pending) {
      pending = this.fetch(tenantId).finally(() => this.inflight.delete(tenantId));
      this.inflight.set(tenantId, pending);
    }
    return pending;
  }

  async invalidate(tenantId: string): Promise<void> {
    const { redis, key } = this.deps;
    this.forget(tenantId);
    await redis.multi().incr(key('entitlements', 'gen', tenantId)).del(key('entitlements', tenantId)).publish(this.channel, tenantId).exec();
  }

  private forget(tenantId: string): void {
    this.local.delete(tenantId);
    this.epochs.set(tenantId, (this.epochs.get(tenantId) ?? 0) + 1);
  }

  private async fetch(tenantId: string): Promise<Entitlements> {
    const { redis, key, loader, ttlSeconds } = this.deps;
    const epoch = this.epochs.get(tenantId) ?? 0;
    const [cached, generation] = await redis.mget(key('entitlements', tenantId), key('entitlements', 'gen', tenantId));
    let value: Entitlements;
    if (cached) {
      value = JSON.parse(cached) as Entitlements;
    } else {
      value = await loader(tenantId);
      // Write back only if no invalidation happened while loading.
      await redis.eval(SET_IF_GENERATION, 2, key('entitlements', tenantId), key('entitlements', 'gen', tenantId), generation ?? '', JSON.stringify(value), ttlSeconds);
    }
    if ((this.epochs.get(tenantId) ?? 0) === epoch) this.local.set(tenantId, { value, at: Date.now() });
    return value;
  }
}

const SET_IF_GENERATION = `
local gen = redis.call('GET', KEYS[2]) or ''
if gen == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3]) end
return 0`;
