import type { Em } from '../../lib/db';
import { MailMessage } from '../../entities/platform/mail';
import { mailQueue } from '../../queues/identity';
import type { Services } from '../services';
import { renderMail, type MailTemplate } from './mailTemplates';

export type ComposeMailProps = MailTemplate & {
  to: string;
  tenantId?: string | null;
  /** Makes the mail unique (e.g. broadcast:<id>:<user>); a second compose with the same key is refused by the database. */
  dedupeKey?: string;
};

/** Renders a mail into the outbox, in the caller's unit of work. Send it with dispatchMails once flushed. */
export function composeMail(em: Em, services: Services, props: ComposeMailProps): MailMessage {
  const { subject, text } = renderMail(services.config.APP_URL || services.config.PUBLIC_URL, props);
  return em.create(MailMessage, {
    to: props.to,
    template: props.template,
    subject,
    text,
    tenantId: props.tenantId ?? null,
    dedupeKey: props.dedupeKey ?? null,
  });
}

/**
 * Enqueues committed outbox mails; the job id is the mail id, so enqueueing twice sends once. It never fails the
 * caller: the committed row is the mail's record, so when Redis does not answer the mail stays `queued` for the
 * clock's relay (domain/identity/relayQueuedMails.ts) and the caller's answer stands.
 */
export async function dispatchMails(services: Services, mails: MailMessage[]): Promise<void> {
  if (!mails.length) return;
  try {
    await services.queues.addBulk(
      mailQueue,
      mails.map((m) => ({ payload: { mailId: m.id }, options: { jobId: m.id } })),
    );
  } catch (err) {
    services.logger.warn({ err: (err as Error).message, mails: mails.map((m) => m.id) }, 'mails left to the relay');
  }
}
