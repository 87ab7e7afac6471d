import { KnowledgeArticle } from '../../entities/knowledge/article';
import { KnowledgeDailyStat, KnowledgeSearchMiss } from '../../entities/knowledge/subscriber';
import type { TenantContext } from '../context';
import { findSpace } from './lookup';

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

/** Statistics of a space over the last `days` days (as flushed from Redis, at most a minute behind). */
export async function getSpaceAnalytics(ctx: TenantContext, spaceId: string, days: number): Promise<SpaceAnalytics> {
  const space = await findSpace(ctx.em, spaceId);
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const rows = await ctx.em.find(KnowledgeDailyStat, { spaceId: space.id, day: { $gte: from, $lte: to } }, { orderBy: { day: 'asc' } });
  const spaceRows = rows.filter((r) => !r.articleId);
  const perArticle = new Map<string, { views: number; readers: number }>();
  for (const r of rows) {
    if (!r.articleId) continue;
    const acc = perArticle.get(r.articleId) ?? { views: 0, readers: 0 };
    acc.views += r.views;
    acc.readers += r.readers;
    perArticle.set(r.articleId, acc);
  }
  const top = [...perArticle.entries()].sort((a, b) => b[1].views - a[1].views).slice(0, 10);
  const titles = new Map((await ctx.em.find(KnowledgeArticle, { id: { $in: top.map(([id]) => id) } }, { fields: ['title'] })).map((a) => [a.id, a.title]));
  const misses = await ctx.em.find(KnowledgeSearchMiss, { spaceId: space.id, day: { $gte: from, $lte: to } });
  const missCounts = new Map<string, number>();
  for (const m of misses) missCounts.set(m.query, (missCounts.get(m.query) ?? 0) + m.count);
  return {
    spaceId: space.id,
    from,
    to,
    views: spaceRows.reduce((n, r) => n + r.views, 0),
    uniqueReaders: spaceRows.reduce((n, r) => n + r.readers, 0),
    days: spaceRows.map((r) => ({ day: String(r.day), views: r.views, readers: r.readers })),
    topArticles: top.filter(([id]) => titles.has(id)).map(([articleId, s]) => ({ articleId, title: titles.get(articleId)!, ...s })),
    searchesWithoutResult: [...missCounts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([query, count]) => ({ query, count })),
  };
}
