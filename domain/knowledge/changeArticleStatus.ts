import { KnowledgeArticle, type ArticleStatus } from '../../entities/knowledge/article';
import { KnowledgeSpace } from '../../entities/knowledge/space';
import { knowledgeMailingQueue } from '../../queues/knowledge';
import type { TenantContext } from '../context';
import { notifyKnowledge } from './events';
import { findArticle } from './lookup';
import { assertTransition } from './transitions';
import { bumpSearchVersion } from './searchCache';

/**
 * Moves an article to another status along the transition table (409 `invalid_transition`). The first
 * publication stamps publishedAt; publishing an article of a blog space mails its confirmed subscribers once.
 * mailedAt is stamped only once the mailing job is enqueued (its id kb-mail.<articleId>): when the enqueue after
 * the commit fails (503), the article stays published and unmailed, and publishing it again enqueues the
 * mailing (a no-op while the job exists; the job mails each subscriber once). With `fromAny` (POST /publish,
 * DELETE), the status is reached from any other, and an article already in it answers unchanged.
 */
export async function changeArticleStatus(ctx: TenantContext, id: string, to: ArticleStatus, options: { fromAny?: boolean } = {}): Promise<KnowledgeArticle> {
  let from: ArticleStatus = to;
  let mail = false;
  const article = await ctx.em.transactional(async (em) => {
    const article = await findArticle(em, id, { lock: true });
    from = article.status;
    if (!options.fromAny || from !== to) {
      if (!options.fromAny) assertTransition(from, to);
      article.status = to;
      article.updatedBy = ctx.userId;
      if (to === 'published') article.publishedAt ??= new Date();
    }
    if (to === 'published' && !article.mailedAt) {
      const space = await em.findOneOrFail(KnowledgeSpace, { id: article.spaceId }, { fields: ['mode'] });
      mail = space.mode === 'blog';
    }
    return article;
  });
  if (from !== to) await bumpSearchVersion(ctx.services, ctx.tenantId);
  if (mail) {
    await ctx.services.queues.add(knowledgeMailingQueue, { tenantId: ctx.tenantId, articleId: article.id }, { jobId: `kb-mail.${article.id}` });
    await ctx.em.nativeUpdate(KnowledgeArticle, { id: article.id, mailedAt: null }, { mailedAt: new Date() });
  }
  if (from === to) return article;
  const subject = { spaceId: article.spaceId, articleId: article.id };
  await notifyKnowledge(ctx.services, ctx.tenantId, 'article.status_changed', subject, { from, to });
  if (to === 'published') await notifyKnowledge(ctx.services, ctx.tenantId, 'article.published', subject, { title: article.title, slug: article.slug });
  if (to === 'archived') await notifyKnowledge(ctx.services, ctx.tenantId, 'article.archived', subject, { from });
  return article;
}
