import { invalidField } from '../../lib/errors';
import type { TenantContext } from '../context';
import { countArticlesOfSpace, renumberArticles } from './store/articles';
import { lockReadingOrder } from './store/locks';
import { bumpSearchVersion } from './store/searchCache';
import { findSpace } from './store/spaces';

/**
 * Sets the reading order of a space in one statement (one transaction): the listed articles come first in the
 * given order (sortOrder 0, 1, ...), the others follow in their previous order. Every id must be an article of
 * the space, once (400 otherwise). Returns how many articles were renumbered.
 */
export async function reorderArticles(ctx: TenantContext, spaceId: string, articleIds: string[]): Promise<number> {
  if (new Set(articleIds).size !== articleIds.length) throw invalidField('articleIds', 'must not repeat an article');
  const renumbered = await ctx.em.transactional(async (em) => {
    const space = await findSpace(em, spaceId);
    await lockReadingOrder(em, space.id);
    const found = await countArticlesOfSpace(em, space.id, articleIds);
    if (found !== articleIds.length) throw invalidField('articleIds', 'must all be articles of this space');
    return renumberArticles(em, ctx.tenantId, space.id, articleIds);
  });
  await bumpSearchVersion(ctx.services, ctx.tenantId);
  return renumbered;
}
