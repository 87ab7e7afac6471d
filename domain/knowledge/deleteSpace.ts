import { KnowledgeArticle, KnowledgeArticleVersion, KnowledgeComment } from '../../entities/knowledge/article';
import { KnowledgeCollection } from '../../entities/knowledge/space';
import { KnowledgeDailyStat, KnowledgeSearchMiss, KnowledgeSubscriber } from '../../entities/knowledge/subscriber';
import type { TenantContext } from '../context';
import { notifyKnowledge } from './events';
import { findSpace } from './lookup';
import { bumpSearchVersion } from './searchCache';

/** Deletes a space and everything in it (collections, articles, their versions and comments, subscribers, statistics), in one transaction. */
export async function deleteSpace(ctx: TenantContext, id: string): Promise<void> {
  const space = await ctx.em.transactional(async (em) => {
    const space = await findSpace(em, id);
    const articleIds = (await em.find(KnowledgeArticle, { spaceId: id }, { fields: ['id'] })).map((a) => a.id);
    if (articleIds.length) {
      // Versions are append-only for updates; deleting them with their article is allowed.
      await em.nativeDelete(KnowledgeArticleVersion, { articleId: { $in: articleIds } });
      await em.nativeDelete(KnowledgeComment, { articleId: { $in: articleIds } });
    }
    await em.nativeDelete(KnowledgeArticle, { spaceId: id });
    await em.nativeDelete(KnowledgeCollection, { spaceId: id });
    await em.nativeDelete(KnowledgeSubscriber, { spaceId: id });
    await em.nativeDelete(KnowledgeDailyStat, { spaceId: id });
    await em.nativeDelete(KnowledgeSearchMiss, { spaceId: id });
    em.remove(space);
    return space;
  });
  await bumpSearchVersion(ctx.services, ctx.tenantId);
  await notifyKnowledge(ctx.services, ctx.tenantId, 'space.deleted', { spaceId: space.id }, { name: space.name, slug: space.slug, mode: space.mode });
}
