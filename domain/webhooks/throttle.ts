import { randomUUID } from 'node:crypto';
import type { Services } from '../services';

/**
 * Redis counters shared by the worker dynos: the organisation's deliveries this second (WEBHOOK_RATE_PER_SECOND)
 * and the attempts in flight to one endpoint (WEBHOOK_ENDPOINT_CONCURRENCY, leases). A dyno killed in an attempt
 * leaves its slot taken until its lease lapses (twice the attempt timeout and a second after it was taken).
 */

export async function releaseEndpointSlot(services: Services, endpointId: string, lease: string): Promise<void> {
  await services.redis.zrem(services.key('webhooks', 'inflight', endpointId), lease);
}

/**
 * The organisation's rate and one of the endpoint's slots taken together, in one MULTI (both keys are of the
 * `webhooks` family: one slot on a cluster): the lease to release after the attempt, or how long to wait
 * (the next second when over the rate, a short jittered pause when the endpoint's slots are all held). Each lease
 * is a member of a sorted set scored by its expiry, expired ones dropped before the count: the slots a killed dyno
 * held come back once their leases lapse, however busy the endpoint stays (a shared counter refreshed by every
 * taker never lapsed while other attempts kept polling).
 */
export async function takeAttemptSlot(
  services: Services,
  t: { tenantId: string; perSecond: number; endpointId: string; slots: number; timeoutMs: number },
): Promise<{ lease: string } | { waitMs: number }> {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  const rateKey = services.key('webhooks', 'rate', t.tenantId, String(second));
  const slotKey = services.key('webhooks', 'inflight', t.endpointId);
  const lease = randomUUID();
  const ttl = t.timeoutMs * 2 + 1000;
  const [[, count], , , , [, held]] = (await services.redis
    .multi()
    .incr(rateKey)
    .expire(rateKey, 2)
    .zremrangebyscore(slotKey, '-inf', now)
    .zadd(slotKey, now + ttl, lease)
    .zcard(slotKey)
    .pexpire(slotKey, ttl)
    .exec()) as [[null, number], unknown, unknown, unknown, [null, number], unknown];
  if (count <= t.perSecond && held <= t.slots) return { lease };
  await services.redis.zrem(slotKey, lease);
  if (count > t.perSecond) return { waitMs: (second + 1) * 1000 - now + Math.round(Math.random() * 50) };
  return { waitMs: 100 + Math.round(Math.random() * 200) };
}
