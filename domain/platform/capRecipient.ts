import type { MailMessage } from '../../entities/platform/mail';
import type { Services } from '../services';
import { admitToRecipientWindow } from './store';

/**
 * Templates of mails anyone can cause to be sent to any address: a sign-up or its confirmation again, a password
 * reset, an invitation (anyone may found an organisation), a storefront booking's confirmation, a visitor's sign-in
 * link, a waitlist place, a blog subscription's confirmation. Mails to people who asked for them (a confirmed subscriber's articles,
 * a booking's reminder) and the platform's own (broadcasts) are not capped.
 */
export const UNSOLICITED_TEMPLATES: ReadonlySet<string> = new Set([
  'confirm_email',
  'account_exists',
  'reset_password',
  'invitation',
  'booking_confirmation',
  'booking_sign_in',
  'booking_waitlist_joined',
  'knowledge_subscribe_confirm',
]);

const HOUR_MS = 3_600_000;

/**
 * The per-recipient cap: the one place every mail passes is the mail worker, which asks this before sending. An
 * unsolicited mail (UNSOLICITED_TEMPLATES) goes out only while its recipient (case-insensitive) had fewer than
 * MAIL_RECIPIENT_CAP_PER_HOUR of them in the last hour, counted in Redis across worker dynos (a sliding window).
 * True when over it: the mail is not to be sent, and this is logged and counted (mails_capped_total); the worker
 * records it `capped` in the outbox. The request that wrote the mail has long been answered, the same whatever
 * happens here, so the stranger learns nothing.
 */
export async function overRecipientCap(
  services: Services,
  mail: Pick<MailMessage, 'id' | 'to' | 'template'>,
): Promise<boolean> {
  if (!UNSOLICITED_TEMPLATES.has(mail.template)) return false;
  const cap = services.config.MAIL_RECIPIENT_CAP_PER_HOUR;
  if (
    await admitToRecipientWindow(
      services.redis,
      services.key('mail-cap', mail.to.trim().toLowerCase()),
      mail.id,
      HOUR_MS,
      cap,
    )
  )
    return false;
  services.metrics.mailsCapped.inc({ template: mail.template });
  services.logger.warn(
    { mailId: mail.id, template: mail.template, cap },
    'mail not sent: its recipient reached MAIL_RECIPIENT_CAP_PER_HOUR',
  );
  return true;
}
