import { KnowledgeSubscriber } from '../../entities/knowledge/subscriber';
import type { KnowledgeSpace } from '../../entities/knowledge/space';
import { notFound } from '../../lib/errors';
import { dispatchMails } from '../platform/mail';
import type { Services } from '../services';
import { composeConfirmation, verifyLinkToken } from './subscriberMail';

/** A pending address is mailed its confirmation again only once the last one is this old (its link still works). */
export const CONFIRMATION_RESEND_HOURS = 24;

/**
 * Subscribes an address to a blog space (double opt-in). Whatever the address's state, the answer is the same
 * (no one learns who subscribed): a new or pending or unsubscribed address stays (or becomes) pending and gets a
 * confirmation mail through the mail queue, unless one was mailed less than CONFIRMATION_RESEND_HOURS ago (asking
 * again and again mails it once); a confirmed one is left as is and gets nothing.
 */
export async function subscribe(services: Services, space: KnowledgeSpace, email: string): Promise<void> {
  if (space.mode !== 'blog') throw notFound('Blog');
  const em = services.orm.em.fork();
  em.setFilterParams('tenant', { tenantId: space.tenantId });
  const address = email.trim();
  const mail = await em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`kb_sub:${space.id}:${address.toLowerCase()}`]);
    let subscriber = await tx.findOne(KnowledgeSubscriber, { spaceId: space.id, email: { $ilike: address.replace(/[\\%_]/g, '\\$&') } });
    if (subscriber?.status === 'confirmed') return null;
    if (!subscriber) subscriber = tx.create(KnowledgeSubscriber, { tenantId: space.tenantId, spaceId: space.id, email: address, status: 'pending', confirmedAt: null, unsubscribedAt: null, confirmationMailedAt: null });
    else {
      subscriber.status = 'pending';
      subscriber.unsubscribedAt = null;
    }
    const now = new Date();
    if (subscriber.confirmationMailedAt && now.getTime() - subscriber.confirmationMailedAt.getTime() < CONFIRMATION_RESEND_HOURS * 3_600_000) return null;
    subscriber.confirmationMailedAt = now;
    return composeConfirmation(tx, services, space, subscriber);
  });
  if (mail) await dispatchMails(services, [mail]);
}

/** Confirms (token of the confirmation mail) or unsubscribes (token of any mail) a subscriber; a bad token is a 404. */
export async function answerSubscriberLink(services: Services, token: string, purpose: 'confirm' | 'unsubscribe'): Promise<KnowledgeSubscriber> {
  const id = verifyLinkToken(services, token, purpose);
  if (!id) throw notFound('Subscription');
  const em = services.orm.em.fork();
  const subscriber = await em.findOne(KnowledgeSubscriber, { id }, { filters: false });
  if (!subscriber) throw notFound('Subscription');
  if (purpose === 'confirm' && subscriber.status === 'pending') {
    subscriber.status = 'confirmed';
    subscriber.confirmedAt = new Date();
  } else if (purpose === 'unsubscribe' && subscriber.status !== 'unsubscribed') {
    subscriber.status = 'unsubscribed';
    subscriber.unsubscribedAt = new Date();
  }
  await em.flush();
  return subscriber;
}
