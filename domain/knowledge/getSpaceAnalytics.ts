import { KnowledgeDailyStat } from '../../entities/knowledge/subscriber';
import { lean, preparedRead } from '../../lib/lean';
import type { TenantContext } from '../context';
import { checkSpace } from './lookup';

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

// Lean reads (docs/database-path.md): the space's own days, then the sums PostgreSQL computes (preparedRead, the
// tenant bound as $1 in their text): the ten most viewed articles that still exist, the twenty most missed queries.
const spaceDays = lean(KnowledgeDailyStat, { columns: ['day', 'views', 'readers'], where: 'space_id = $1 and article_id is null and day between $2::date and $3::date', orderBy: 'day asc' });
const topArticles = preparedRead<{ articleId: string; title: string; views: number; readers: number }>(
  `select s.article_id as "articleId", a.title, sum(s.views)::int as views, sum(s.readers)::int as readers
   from knowledge_daily_stats s join knowledge_articles a on a.id = s.article_id and a.tenant_id = s.tenant_id
   where s.tenant_id = $1 and s.space_id = $2 and s.article_id is not null and s.day between $3::date and $4::date
     and (not $5::boolean or a.status = 'published')
   group by s.article_id, a.title order by views desc, s.article_id limit 10`,
);
const missedQueries = preparedRead<{ query: string; count: number }>(
  `select query, sum(count)::int as count from knowledge_search_misses
   where tenant_id = $1 and space_id = $2 and day between $3::date and $4::date
   group by query order by count desc, query limit 20`,
);

/**
 * Statistics of a space over the last `days` days (as flushed from Redis, at most a minute behind).
 * `publishedOnly` (a caller who may not see unpublished articles): the top articles are the published ones.
 */
export async function getSpaceAnalytics(ctx: TenantContext, spaceId: string, days: number, { publishedOnly }: { publishedOnly: boolean }): Promise<SpaceAnalytics> {
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const range = [ctx.tenantId, spaceId, from, to];
  // The space check (404) runs beside the reads: they only return rows of this tenant's space.
  const [, own, top, misses] = await Promise.all([checkSpace(ctx, spaceId), spaceDays.all(ctx, spaceId, from, to), topArticles(ctx.services.orm, [...range, publishedOnly]), missedQueries(ctx.services.orm, range)]);
  return {
    spaceId,
    from,
    to,
    views: own.reduce((n, r) => n + r.views, 0),
    uniqueReaders: own.reduce((n, r) => n + r.readers, 0),
    days: own.map((r) => ({ day: String(r.day), views: r.views, readers: r.readers })),
    topArticles: top,
    searchesWithoutResult: misses,
  };
}
