import { KnowledgeSubscriber } from '../../entities/knowledge/subscriber';
import type { KnowledgeSpace } from '../../entities/knowledge/space';
import { notFound } from '../../lib/errors';
import { dispatchMails } from '../platform/mail';
import type { Services } from '../services';
import { lockSubscription } from './store/locks';
import { subscriberByEmail } from './store/subscribers';
import { composeConfirmation } from './subscriberMail';
import { confirmationDue } from './subscriptions';

/**
 * Subscribes an address to a blog space (double opt-in). Whatever the address's state, the answer is the same
 * (no one learns who subscribed): a new or pending or unsubscribed address stays (or becomes) pending and gets a
 * confirmation mail through the mail queue, unless one was mailed less than CONFIRMATION_RESEND_HOURS ago
 * (confirmationDue: asking again and again mails it once); a confirmed one is left as is and gets nothing.
 */
export async function subscribe(services: Services, space: KnowledgeSpace, email: string): Promise<void> {
  if (space.mode !== 'blog') throw notFound('Blog');
  const em = services.orm.em.fork();
  em.setFilterParams('tenant', { tenantId: space.tenantId });
  const address = email.trim();
  const mail = await em.transactional(async (tx) => {
    await lockSubscription(tx, space.id, address);
    let subscriber = await subscriberByEmail(tx, space.id, address);
    if (subscriber?.status === 'confirmed') return null;
    if (!subscriber)
      subscriber = tx.create(KnowledgeSubscriber, {
        tenantId: space.tenantId,
        spaceId: space.id,
        email: address,
        status: 'pending',
        confirmedAt: null,
        unsubscribedAt: null,
        confirmationMailedAt: null,
      });
    else {
      subscriber.status = 'pending';
      subscriber.unsubscribedAt = null;
    }
    const now = new Date();
    if (!confirmationDue(subscriber.confirmationMailedAt ?? null, now)) return null;
    subscriber.confirmationMailedAt = now;
    return composeConfirmation(tx, services, space, subscriber);
  });
  if (mail) await dispatchMails(services, [mail]);
}
