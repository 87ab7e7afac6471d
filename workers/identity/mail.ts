import { LockMode } from '@mikro-orm/core';
import { overRecipientCap } from '../../domain/platform/capRecipient';
import { MailMessage } from '../../entities/platform/mail';
import { mailQueue } from '../../queues/identity';
import { defineProcessor } from '../define';

/**
/**
 * Sends one outbox mail through SMTP, or keeps it in the outbox when SMTP_URL is unset; a mail over its
 * recipient's hourly cap (domain/identity/capRecipient.ts) is neither, it ends `capped`. A mail already sent,
 * kept or capped is skipped, so a retried or duplicated job never mails twice. The outbox row is locked from
 * before the send until its `sent` commits: a second run of the job (its lock lost while this one still sends)
 * waits for the first and finds the mail sent, and the record costs one statement on a connection already held,
 * not a wait for a pooled one (each send holds one connection of the dyno's pool while SMTP answers). What
 * remains is at least once: the SMTP server accepted the mail and the worker died (or PostgreSQL failed) in the
 * milliseconds before that commit; the retry sends it again, with the same Message-ID (named after the outbox
 * row), which mail stores and clients use to show the copies as one message.
 */
export const mailProcessor = defineProcessor(mailQueue, {
  perform: ({ mailId }, { services }) =>
    services.orm.em.fork().transactional(async (em) => {
      const mail = await em.findOne(MailMessage, { id: mailId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!mail || mail.status === 'sent' || mail.status === 'kept' || mail.status === 'capped')
        return { skipped: true };
      if (await overRecipientCap(services, mail)) {
        mail.status = 'capped';
      } else if (!services.mailer) {
        mail.status = 'kept';
      } else {
        await services.mailer.sendMail({
          from: services.config.MAIL_FROM,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          messageId: messageIdOf(mail.id, services.config.PUBLIC_URL),
        });
        mail.status = 'sent';
        mail.sentAt = new Date();
      }
      mail.error = null;
      return { status: mail.status };
    }),

  async onFailed({ mailId }, error, { services }) {
    await services.orm.em
      .fork()
      .nativeUpdate(
        MailMessage,
        { id: mailId, status: 'queued' },
        { status: 'failed', error: error.message.slice(0, 500) },
      );
  },
});

/** The Message-ID of an outbox mail: the same for every attempt to send it. */
const messageIdOf = (mailId: string, publicUrl: string) => `<${mailId}@${new URL(publicUrl).hostname}>`;
