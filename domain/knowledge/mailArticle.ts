import { knowledgeMailingQueue, type KnowledgeMailingJob } from '../../queues/knowledge';
import { dispatchMails } from '../platform/mail';
import type { Services } from '../services';
import { articleWithBody, stopMailingUnlessPublished } from './store/articles';
import { findSpace } from './store/spaces';
import { confirmedSubscribersAfter, mailsOfDedupeKeys } from './store/subscribers';
import { articleMailKey, composeArticleMail } from './subscriberMail';

export const MAILING_BATCH = 200;

/**
 * One batch of a published blog article's mailing: the next confirmed subscribers (by id) each get one mail
 * written to the outbox with a dedupe key (article, subscriber), then dispatched through the mail queue; the
 * next batch is enqueued with a deterministic job id. A retried batch finds its mails written and only
 * dispatches them again (the mail queue sends a mail once), so nobody is mailed twice.
 *
 * A batch that finds the article unpublished (archived, back to draft) mails nothing and stops the mailing,
 * recording where: it clears `mailedAt` and keeps its cursor in `mailingAfterSubscriberId`, so the next
 * publication stages the mailing again from there (changeArticleStatus) and the subscribers not mailed yet
 * get the article then; never while it is not published. Both writes hold the article's row, so a
 * publication either sees the mailing stopped or this batch sees the article published again and goes on.
 */
export async function mailArticleBatch(services: Services, job: KnowledgeMailingJob): Promise<number> {
  const em = services.orm.em.fork();
  em.setFilterParams('tenant', { tenantId: job.tenantId });
  let article = await articleWithBody(em, job.articleId);
  if (!article) return 0;
  if (article.status !== 'published') {
    if (await stopMailingUnlessPublished(em, job.articleId, job.afterSubscriberId ?? null)) return 0;
    // Published again since it was read, while its mailing was still under way: this batch goes on.
    article = await articleWithBody(em, job.articleId, { refresh: true });
    if (!article || article.status !== 'published') return 0;
  }
  const space = await findSpace(em, article.spaceId);
  const subscribers = await confirmedSubscribersAfter(em, space.id, job.afterSubscriberId ?? null, MAILING_BATCH);
  const written = await mailsOfDedupeKeys(
    em,
    subscribers.map((s) => articleMailKey(article.id, s.id)),
  );
  const have = new Set(written.map((m) => m.dedupeKey));
  const mails = subscribers
    .filter((s) => !have.has(articleMailKey(article.id, s.id)))
    .map((s) => composeArticleMail(em, services, space, article, s));
  await em.flush();
  await dispatchMails(services, [...written, ...mails]);
  const last = subscribers.at(-1);
  if (subscribers.length === MAILING_BATCH && last) {
    await services.queues.add(
      knowledgeMailingQueue,
      { ...job, afterSubscriberId: last.id },
      { jobId: `kb-mail.${article.id}.${last.id}` },
    );
  }
  return mails.length;
}
