import type { Services } from '../services';

/**
 * Redis counters shared by the worker dynos: the organisation's deliveries this second (WEBHOOK_RATE_PER_SECOND)
 * and the attempts in flight to one endpoint (WEBHOOK_ENDPOINT_CONCURRENCY). A dyno killed in an attempt leaves
 * its slot taken until the counter expires (twice the attempt timeout after the last taker).
 */

/** 0 when the organisation may make one more attempt now (counted), else the ms until the next second. */
export async function takeTenantRate(services: Services, tenantId: string, perSecond: number): Promise<number> {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  const key = services.key('webhooks', 'rate', tenantId, String(second));
  const [[, count]] = (await services.redis.multi().incr(key).expire(key, 2).exec()) as [[null, number], unknown];
  return count <= perSecond ? 0 : (second + 1) * 1000 - now + Math.round(Math.random() * 50);
}

export async function takeEndpointSlot(
  services: Services,
  endpointId: string,
  limit: number,
  timeoutMs: number,
): Promise<boolean> {
  const key = services.key('webhooks', 'inflight', endpointId);
  const [[, count]] = (await services.redis
    .multi()
    .incr(key)
    .pexpire(key, timeoutMs * 2 + 1000)
    .exec()) as [[null, number], unknown];
  if (count <= limit) return true;
  await services.redis.decr(key);
  return false;
}

export async function releaseEndpointSlot(services: Services, endpointId: string): Promise<void> {
  await services.redis.decr(services.key('webhooks', 'inflight', endpointId));
}
