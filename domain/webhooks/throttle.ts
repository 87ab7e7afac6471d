import { randomUUID } from 'node:crypto';
import type { Services } from '../services';

/**
 * Redis counters shared by the worker dynos: the organisation's deliveries this second (WEBHOOK_RATE_PER_SECOND)
 * and the attempts in flight to one endpoint (WEBHOOK_ENDPOINT_CONCURRENCY, leases). A dyno killed in an attempt
 * leaves its slot taken until its lease lapses (twice the attempt timeout and a second after it was taken).
 */

/** 0 when the organisation may make one more attempt now (counted), else the ms until the next second. */
export async function takeTenantRate(services: Services, tenantId: string, perSecond: number): Promise<number> {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  const key = services.key('webhooks', 'rate', tenantId, String(second));
  const [[, count]] = (await services.redis.multi().incr(key).expire(key, 2).exec()) as [[null, number], unknown];
  return count <= perSecond ? 0 : (second + 1) * 1000 - now + Math.round(Math.random() * 50);
}

/**
 * A lease on one of the endpoint's slots, or null when all `limit` are held. Each lease is a member of a sorted
 * set scored by its expiry (the attempt's timeout, twice, and a second): expired ones are dropped before the
 * count, so the slots a killed dyno held come back on their own once their leases lapse, however busy the
 * endpoint stays. (A shared counter refreshed by every taker never lapsed while other attempts kept polling:
 * a kill in the middle of deliveries took those slots for good.)
 */
export async function takeEndpointSlot(
  services: Services,
  endpointId: string,
  limit: number,
  timeoutMs: number,
): Promise<string | null> {
  const key = services.key('webhooks', 'inflight', endpointId);
  const lease = randomUUID();
  const now = Date.now();
  const ttl = timeoutMs * 2 + 1000;
  const [, , [, held]] = (await services.redis
    .multi()
    .zremrangebyscore(key, '-inf', now)
    .zadd(key, now + ttl, lease)
    .zcard(key)
    .pexpire(key, ttl)
    .exec()) as [unknown, unknown, [null, number], unknown];
  if (held <= limit) return lease;
  await services.redis.zrem(key, lease);
  return null;
}

export async function releaseEndpointSlot(services: Services, endpointId: string, lease: string): Promise<void> {
  await services.redis.zrem(services.key('webhooks', 'inflight', endpointId), lease);
}
