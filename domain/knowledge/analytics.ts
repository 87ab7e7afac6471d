import { createHash } from 'node:crypto';
import type { Services } from '../services';

/**
 * Reading statistics without a database write per view: each view (a read of a published article on the public
 * surface, or by a member on /api/knowledge; never through an integration key) increments a Redis hash field and adds the
 * reader to a HyperLogLog (unique readers per day, for the article and for its space); searches of a space
 * that found nothing increment another hash. A job (flushKnowledgeStats, every minute from the clock) moves
 * the counts into knowledge_daily_stats and knowledge_search_misses. Recording is best effort: a Redis
 * failure never fails the read.
 */
const today = () => new Date().toISOString().slice(0, 10);
const HLL_TTL_SECONDS = 3 * 86_400;

export const statsKeys = (services: Services) => ({
  views: services.key('kb', 'views'),
  misses: services.key('kb', 'misses'),
  readerSets: services.key('kb', 'readers'),
  hll: (field: string) => services.key('kb', 'hll', field),
});

/** A reader's key for unique counts: the member, or a daily-salted hash of the anonymous client (no address is kept). */
export const readerKey = (userId: string | null, ip: string | undefined, userAgent: string | undefined): string =>
  userId ?? createHash('sha256').update(`${today()}|${ip ?? ''}|${userAgent ?? ''}`).digest('hex').slice(0, 24);

export async function recordView(services: Services, view: { tenantId: string; spaceId: string; articleId: string; reader: string }): Promise<void> {
  const day = today();
  const keys = statsKeys(services);
  const articleField = `${view.tenantId}|${view.spaceId}|${view.articleId}|${day}`;
  const spaceField = `${view.tenantId}|${view.spaceId}|-|${day}`;
  try {
    await services.redis
      .multi()
      .hincrby(keys.views, articleField, 1)
      .hincrby(keys.views, spaceField, 1)
      .pfadd(keys.hll(articleField), view.reader)
      .pfadd(keys.hll(spaceField), view.reader)
      .expire(keys.hll(articleField), HLL_TTL_SECONDS)
      .expire(keys.hll(spaceField), HLL_TTL_SECONDS)
      .sadd(keys.readerSets, articleField, spaceField)
      .exec();
  } catch (err) {
    services.logger.debug({ err: (err as Error).message }, 'knowledge view not counted');
  }
}

/** Normalised (trimmed, lower-case, spaces collapsed, 200 characters) so that counts group the same question. */
export async function recordSearchMiss(services: Services, tenantId: string, spaceId: string, query: string): Promise<void> {
  const q = query.trim().toLowerCase().replace(/\s+/g, ' ').slice(0, 200).replaceAll('|', ' ');
  try {
    await services.redis.hincrby(statsKeys(services).misses, `${tenantId}|${spaceId}|${today()}|${q}`, 1);
  } catch (err) {
    services.logger.debug({ err: (err as Error).message }, 'knowledge search miss not counted');
  }
}
