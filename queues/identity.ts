import { defineQueue } from './define';

/** One e-mail to render and send (or keep in the outbox). `mailId` is the outbox row, created with the job. */
export interface MailJob {
  mailId: string;
}

/** A platform broadcast, fanned out to every active user in batches of mail jobs. */
export interface BroadcastJob {
  broadcastId: string;
  subject: string;
  text: string;
  /** Users are paged by id; the job re-enqueues itself with the last id seen. */
  afterUserId?: string;
}

/**
 * A request for a password-reset or confirmation link. The route only enqueues it, so its answer takes the
 * same time whether or not the address has an account (no lookup on the request path); the worker looks
 * the account up and mails the link, or does nothing.
 */
export interface AccountLinkJob {
  purpose: 'reset_password' | 'confirm_email';
  email: string;
  /** Client address of the request, for the audit log. */
  ip?: string | null;
}

export const mailQueue = defineQueue<MailJob>('mail', {
  defaults: { attempts: 6, backoff: { type: 'exponential', delay: 2000 } },
});
export const broadcastQueue = defineQueue<BroadcastJob>('broadcast', { concurrency: 1 });
export const accountLinkQueue = defineQueue<AccountLinkJob>('account-links');
