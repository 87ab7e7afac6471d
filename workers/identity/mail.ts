import { overRecipientCap } from '../../domain/identity/capRecipient';
import { MailMessage } from '../../entities/identity/mail';
import { mailQueue } from '../../queues/identity';
import { defineProcessor } from '../define';

/**
 * Sends one outbox mail through SMTP, or keeps it in the outbox when SMTP_URL is unset; a mail over its
 * recipient's hourly cap (domain/identity/capRecipient.ts) is neither, it ends `capped`. A mail already
 * sent, kept or capped is skipped, so a retried or duplicated job never mails twice. One case remains: the SMTP
 * server accepted the mail and the worker died (or PostgreSQL failed) before recording it; the retry sends
 * it again. Its Message-ID is then the same (named after the outbox row), which mail stores and clients use
 * to show the copies as one message.
 */
export const mailProcessor = defineProcessor(mailQueue, {
  async perform({ mailId }, { services }) {
    const em = services.orm.em.fork();
    const mail = await em.findOne(MailMessage, { id: mailId });
    if (!mail || mail.status === 'sent' || mail.status === 'kept' || mail.status === 'capped') return { skipped: true };
    if (await overRecipientCap(services, mail)) {
      mail.status = 'capped';
    } else if (!services.mailer) {
      mail.status = 'kept';
    } else {
      await services.mailer.sendMail({ from: services.config.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text, messageId: messageIdOf(mail.id, services.config.PUBLIC_URL) });
      mail.status = 'sent';
      mail.sentAt = new Date();
    }
    mail.error = null;
    await em.flush();
    return { status: mail.status };
  },

  async onFailed({ mailId }, error, { services }) {
    await services.orm.em.fork().nativeUpdate(MailMessage, { id: mailId, status: 'queued' }, { status: 'failed', error: error.message.slice(0, 500) });
  },
});

/** The Message-ID of an outbox mail: the same for every attempt to send it. */
const messageIdOf = (mailId: string, publicUrl: string) => `<${mailId}@${new URL(publicUrl).hostname}>`;
