import type { KnowledgeSubscriber } from '../../entities/knowledge/subscriber';
import type { LinkPurpose } from './subscriberMail';

/** A pending address is mailed its confirmation again only once the last one is this old (its link still works). */
export const CONFIRMATION_RESEND_HOURS = 24;

/** Whether a (new, pending or unsubscribed) address is mailed a confirmation now: never mailed, or long enough ago. */
export const confirmationDue = (lastMailedAt: Date | null, now: Date): boolean =>
  !lastMailedAt || now.getTime() - lastMailedAt.getTime() >= CONFIRMATION_RESEND_HOURS * 3_600_000;

type LinkState = Pick<KnowledgeSubscriber, 'status' | 'confirmedAt' | 'unsubscribedAt'>;

/**
 * What a signed link does to a subscriber: confirm moves a pending one to confirmed (a confirmed or unsubscribed
 * one stays as it is: an old confirmation link does not subscribe again); unsubscribe ends any subscription. The
 * stamps record when; a link answered again changes nothing.
 */
export function answerLink(subscriber: LinkState, purpose: LinkPurpose, now: Date): void {
  if (purpose === 'confirm' && subscriber.status === 'pending') {
    subscriber.status = 'confirmed';
    subscriber.confirmedAt = now;
  } else if (purpose === 'unsubscribe' && subscriber.status !== 'unsubscribed') {
    subscriber.status = 'unsubscribed';
    subscriber.unsubscribedAt = now;
  }
}
