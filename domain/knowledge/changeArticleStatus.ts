import { newId } from '../../entities/base';
import type { ArticleStatus, KnowledgeArticle } from '../../entities/knowledge/article';
import { knowledgeMailingQueue } from '../../queues/knowledge';
import type { StagedJob } from '../../entities/jobs/stagedJob';
import type { TenantContext } from '../context';
import { enqueueStaged, stageJob } from '../jobs/stageJob';
import { emitEvent } from '../webhooks/emitEvent';
import { articleData } from '../webhooks/payloads';
import { notifyKnowledge } from './events';
import { findArticle } from './store/articles';
import { assertTransition } from './transitions';
import { bumpSearchVersion } from './store/searchCache';
import { modeOfSpace } from './store/spaces';

/**
 * Moves an article to another status along the transition table (409 `invalid_transition`). The first
 * publication stamps publishedAt; publishing an article of a blog space mails its confirmed subscribers once.
 * The mailing job (its id kb-mail.<articleId>; the job mails each subscriber once) commits with the status and
 * the mailedAt stamp, so it is never lost to a crash or a Redis outage after the commit. A mailing that a batch
 * stopped because the article was unpublished meanwhile (mailedAt cleared, see mailArticleBatch) is staged
 * again by the next publication, from the subscriber where it stopped (a job id of its own: the first one's
 * may still be kept by the queue). With `fromAny` (POST /publish, DELETE), the status is reached from any
 * other, and an article already in it answers unchanged. Every move to published emits `article.published` in
 * the transaction of the move.
 */
export async function changeArticleStatus(
  ctx: TenantContext,
  id: string,
  to: ArticleStatus,
  options: { fromAny?: boolean } = {},
): Promise<KnowledgeArticle> {
  let from: ArticleStatus = to;
  let mailing: StagedJob | null = null;
  const article = await ctx.em.transactional(async (em) => {
    const article = await findArticle(em, id, { lock: true });
    from = article.status;
    const publishedBefore = article.publishedAt !== null;
    if (!options.fromAny || from !== to) {
      if (!options.fromAny) assertTransition(from, to);
      article.status = to;
      article.updatedBy = ctx.userId;
      if (to === 'published') {
        article.publishedAt ??= new Date();
        emitEvent(em, ctx.tenantId, 'article.published', articleData(article));
      }
    }
    if (to === 'published' && !article.mailedAt) {
      if ((await modeOfSpace(em, article.spaceId)) === 'blog') {
        const after = article.mailingAfterSubscriberId;
        const payload = {
          tenantId: ctx.tenantId,
          articleId: article.id,
          ...(after ? { afterSubscriberId: after } : {}),
        };
        mailing = stageJob(
          em,
          knowledgeMailingQueue,
          payload,
          publishedBefore ? `kb-mail.${article.id}.resumed.${newId()}` : `kb-mail.${article.id}`,
        );
        article.mailedAt = new Date();
        article.mailingAfterSubscriberId = null;
      }
    }
    return article;
  });
  if (from !== to) await bumpSearchVersion(ctx.services, ctx.tenantId);
  if (mailing) await enqueueStaged(ctx.services, [mailing]);
  if (from === to) return article;
  const subject = { spaceId: article.spaceId, articleId: article.id };
  await notifyKnowledge(ctx.services, ctx.tenantId, 'article.status_changed', subject, { from, to });
  if (to === 'published')
    await notifyKnowledge(ctx.services, ctx.tenantId, 'article.published', subject, {
      title: article.title,
      slug: article.slug,
    });
  if (to === 'archived') await notifyKnowledge(ctx.services, ctx.tenantId, 'article.archived', subject, { from });
  return article;
}
