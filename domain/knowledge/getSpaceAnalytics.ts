import type { TenantContext } from '../context';
import { dayOf } from './analytics';
import { checkSpace } from './store/spaces';
import { missedQueries, spaceDays, topArticles } from './store/stats';

export interface SpaceAnalytics {
  spaceId: string;
  from: string;
  to: string;
  views: number;
  /** Sum of each day's unique readers (a reader of several days counts once per day). */
  uniqueReaders: number;
  days: { day: string; views: number; readers: number }[];
  topArticles: { articleId: string; title: string; views: number; readers: number }[];
  searchesWithoutResult: { query: string; count: number }[];
}

/**
 * Statistics of a space over the last `days` days (as flushed from Redis, at most a minute behind).
 * `publishedOnly` (a caller who may not see unpublished articles): the top articles are the published ones.
 */
export async function getSpaceAnalytics(
  ctx: TenantContext,
  spaceId: string,
  days: number,
  { publishedOnly }: { publishedOnly: boolean },
): Promise<SpaceAnalytics> {
  const range = { from: dayOf(new Date(Date.now() - (days - 1) * 86_400_000)), to: dayOf(new Date()) };
  // The space check (404) runs beside the reads: they only return rows of this tenant's space.
  const [, own, top, misses] = await Promise.all([
    checkSpace(ctx, spaceId),
    spaceDays(ctx, spaceId, range),
    topArticles(ctx.services, ctx.tenantId, spaceId, range, publishedOnly),
    missedQueries(ctx.services, ctx.tenantId, spaceId, range),
  ]);
  return {
    spaceId,
    ...range,
    views: own.reduce((n, r) => n + r.views, 0),
    uniqueReaders: own.reduce((n, r) => n + r.readers, 0),
    days: own.map((r) => ({ day: String(r.day), views: r.views, readers: r.readers })),
    topArticles: top,
    searchesWithoutResult: misses,
  };
}
