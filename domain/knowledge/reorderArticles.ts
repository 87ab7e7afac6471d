import { KnowledgeArticle } from '../../entities/knowledge/article';
import { invalidField } from '../../lib/errors';
import type { TenantContext } from '../context';
import { findSpace } from './lookup';
import { bumpSearchVersion } from './searchCache';

/**
 * Sets the reading order of a space in one statement (one transaction): the listed articles come first in the
 * given order (sortOrder 0, 1, ...), the others follow in their previous order. Every id must be an article of
 * the space, once (400 otherwise). Returns how many articles were renumbered.
 */
export async function reorderArticles(ctx: TenantContext, spaceId: string, articleIds: string[]): Promise<number> {
  if (new Set(articleIds).size !== articleIds.length) throw invalidField('articleIds', 'must not repeat an article');
  const renumbered = await ctx.em.transactional(async (em) => {
    const space = await findSpace(em, spaceId);
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`knowledge_reorder:${space.id}`]);
    const found = await em.count(KnowledgeArticle, { spaceId: space.id, id: { $in: articleIds } });
    if (found !== articleIds.length) throw invalidField('articleIds', 'must all be articles of this space');
    const rows = await em.execute<{ n: number }[]>(
      `with listed as (select t.id, t.ord - 1 as pos from unnest(?::uuid[]) with ordinality as t(id, ord)),
            rest as (select a.id, ? + row_number() over (order by a.sort_order, a.id) - 1 as pos from knowledge_articles a where a.tenant_id = ? and a.space_id = ? and a.id <> all(?::uuid[])),
            moved as (update knowledge_articles a set sort_order = p.pos, updated_at = now() from (select * from listed union all select * from rest) p where a.id = p.id and a.tenant_id = ? and a.space_id = ? and a.sort_order is distinct from p.pos returning 1)
       select count(*)::int as n from moved`,
      [`{${articleIds.join(',')}}`, articleIds.length, ctx.tenantId, space.id, `{${articleIds.join(',')}}`, ctx.tenantId, space.id],
    );
    return rows[0]?.n ?? 0;
  });
  await bumpSearchVersion(ctx.services, ctx.tenantId);
  return renumbered;
}
