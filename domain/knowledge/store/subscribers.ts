import { MailMessage } from '../../../entities/platform/mail';
import { KnowledgeSubscriber } from '../../../entities/knowledge/subscriber';
import type { Em } from '../../../lib/db';

/** The subscriber of a space with this address, compared case-insensitively (an exact match, not a pattern). */
export const subscriberByEmail = (em: Em, spaceId: string, email: string): Promise<KnowledgeSubscriber | null> =>
  em.findOne(KnowledgeSubscriber, { spaceId, email: { $ilike: email.replace(/[\\%_]/g, '\\$&') } });

/** A subscriber of any organisation by id (a signed link names it), or null. */
export const subscriberOfAnyTenant = (em: Em, id: string): Promise<KnowledgeSubscriber | null> =>
  em.findOne(KnowledgeSubscriber, { id }, { filters: false });

/** The next `limit` confirmed subscribers of a space by id, after `afterId` (from the first when null). */
export const confirmedSubscribersAfter = (
  em: Em,
  spaceId: string,
  afterId: string | null,
  limit: number,
): Promise<KnowledgeSubscriber[]> =>
  em.find(
    KnowledgeSubscriber,
    { spaceId, status: 'confirmed', ...(afterId ? { id: { $gt: afterId } } : {}) },
    { orderBy: { id: 'asc' }, limit },
  );

/** The outbox mails of these dedupe keys that are written already. */
export const mailsOfDedupeKeys = (em: Em, keys: string[]): Promise<MailMessage[]> =>
  em.find(MailMessage, { dedupeKey: { $in: keys } });
