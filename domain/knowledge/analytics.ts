import { createHash } from 'node:crypto';
import { SEARCH_MISS_QUERY_LENGTH } from '../../entities/knowledge/subscriber';

/**
 * Reading statistics without a database write per view: each view (a read of a published article on the public
 * surface, or by a member on /api/knowledge; never through an integration key) increments a Redis hash field and adds the
 * reader to a HyperLogLog (unique readers per day, for the article and for its space); searches of a space
 * that found nothing increment another hash. A job (flushKnowledgeStats, every minute from the clock) moves
 * the counts into knowledge_daily_stats and knowledge_search_misses. Recording is best effort: a Redis
 * failure never fails the read (recordView, recordSearchMiss; the structures in store/stats.ts).
 */

/** The UTC day of a moment, as the counters and the statistics tables key it. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** A reader's key for unique counts: the member, or a daily-salted hash of the anonymous client (no address is kept). */
export const readerKey = (
  userId: string | null,
  ip: string | undefined,
  userAgent: string | undefined,
  now = new Date(),
): string =>
  userId ??
  createHash('sha256')
    .update(`${dayOf(now)}|${ip ?? ''}|${userAgent ?? ''}`)
    .digest('hex')
    .slice(0, 24);

/** The counter fields of a view: the article's of the day and its space's (`-` for no article). */
export const viewFields = (
  view: { tenantId: string; spaceId: string; articleId: string },
  day: string,
): [article: string, space: string] => [
  `${view.tenantId}|${view.spaceId}|${view.articleId}|${day}`,
  `${view.tenantId}|${view.spaceId}|-|${day}`,
];

/** Normalised (trimmed, lower-case, spaces collapsed, cut to the column, no `|`) so that counts group the same question. */
export const missedQuery = (query: string): string =>
  query.trim().toLowerCase().replace(/\s+/g, ' ').slice(0, SEARCH_MISS_QUERY_LENGTH).replaceAll('|', ' ');

/** The counter field of a search without result. */
export const missField = (tenantId: string, spaceId: string, day: string, query: string): string =>
  `${tenantId}|${spaceId}|${day}|${missedQuery(query)}`;
