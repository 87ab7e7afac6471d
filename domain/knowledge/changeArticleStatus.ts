import type { ArticleStatus, KnowledgeArticle } from '../../entities/knowledge/article';
import { KnowledgeSpace } from '../../entities/knowledge/space';
import { knowledgeMailingQueue } from '../../queues/knowledge';
import type { TenantContext } from '../context';
import { notifyKnowledge } from './events';
import { findArticle } from './lookup';
import { assertTransition } from './transitions';
import { bumpSearchVersion } from './searchCache';

/**
 * Moves an article to another status along the transition table (409 `invalid_transition`). The first
 * publication stamps publishedAt; publishing an article of a blog space mails its confirmed subscribers once
 * (mailedAt is set in the same transaction, so a republication mails nobody again). With `fromAny` (POST
 * /publish, DELETE), the status is reached from any other, and an article already in it answers unchanged.
 */
export async function changeArticleStatus(ctx: TenantContext, id: string, to: ArticleStatus, options: { fromAny?: boolean } = {}): Promise<KnowledgeArticle> {
  let from: ArticleStatus = to;
  let mail = false;
  const article = await ctx.em.transactional(async (em) => {
    const article = await findArticle(em, id, { lock: true });
    from = article.status;
    if (options.fromAny && from === to) return article;
    if (!options.fromAny) assertTransition(from, to);
    article.status = to;
    article.updatedBy = ctx.userId;
    if (to === 'published') {
      article.publishedAt ??= new Date();
      if (!article.mailedAt) {
        const space = await em.findOneOrFail(KnowledgeSpace, { id: article.spaceId }, { fields: ['mode'] });
        if (space.mode === 'blog') {
          article.mailedAt = new Date();
          mail = true;
        }
      }
    }
    return article;
  });
  if (from === to) return article;
  await bumpSearchVersion(ctx.services, ctx.tenantId);
  if (mail) await ctx.services.queues.add(knowledgeMailingQueue, { tenantId: ctx.tenantId, articleId: article.id }, { jobId: `kb-mail.${article.id}` });
  const subject = { spaceId: article.spaceId, articleId: article.id };
  await notifyKnowledge(ctx.services, ctx.tenantId, 'article.status_changed', subject, { from, to });
  if (to === 'published') await notifyKnowledge(ctx.services, ctx.tenantId, 'article.published', subject, { title: article.title, slug: article.slug });
  if (to === 'archived') await notifyKnowledge(ctx.services, ctx.tenantId, 'article.archived', subject, { from });
  return article;
}
