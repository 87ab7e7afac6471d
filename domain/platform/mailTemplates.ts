import { decimalIn } from '../core/invoices/currencies';
import { EMAIL_TOKEN_TTL_HOURS } from '../identity/emailTokens';
import { INVITATION_TTL_DAYS } from '../identity/invitations';

/** Plain-text mails of the identity service. Links point at the front end (APP_URL). */
export type MailTemplate =
  | { template: 'confirm_email'; data: { name: string; token: string } }
  | { template: 'account_exists'; data: { name: string } }
  | { template: 'reset_password'; data: { name: string; token: string } }
  | { template: 'invitation'; data: { organization: string; inviter: string; token: string } }
  | { template: 'broadcast'; data: { subject: string; text: string } }
  | {
      template: 'booking_confirmation';
      data: { business: string; service: string; when: string; reference: string; slug: string; token: string };
    }
  | { template: 'booking_sign_in'; data: { business: string; slug: string; token: string } }
  | {
      template: 'booking_waitlist_joined';
      data: { business: string; service: string; day: string; slug: string; token: string };
    }
  | {
      template: 'booking_waitlist_offer';
      data: { business: string; service: string; when: string; minutes: number; slug: string; token: string };
    }
  | {
      template: 'share_expiring';
      data: { name: string; item: string; folder: boolean; expiresAt: string; nodeId: string };
    }
  | {
      template: 'booking_reminder';
      data: { business: string; service: string; when: string; reference: string; slug: string | null };
    }
  | {
      template: 'invoice_reminder';
      data: {
        seller: string;
        number: string;
        dueDate: string;
        offsetDays: number;
        outstandingCents: number;
        currency: string;
        /** The invoice's payment link, when its organisation takes payments online. */
        payUrl?: string | null;
      };
    };

const hours = (n: number) => (n === 1 ? '1 hour' : `${n} hours`);

export function renderMail(appUrl: string, mail: MailTemplate): { subject: string; text: string } {
  const base = appUrl.replace(/\/$/, '');
  const link = (path: string, token: string) => `${base}${path}?token=${encodeURIComponent(token)}`;
  switch (mail.template) {
    case 'confirm_email':
      return {
        subject: 'Confirm your e-mail address',
        text: `Hello ${mail.data.name},\n\nConfirm your e-mail address by opening:\n${link('/confirm-email', mail.data.token)}\n\nThis link expires in ${hours(EMAIL_TOKEN_TTL_HOURS.confirm_email)}.`,
      };
    case 'account_exists':
      // Sent instead of a confirmation when someone registers with an address that already has an account:
      // the answer of POST /auth/register stays the same, only the owner of the mailbox learns the difference.
      return {
        subject: 'You already have an account',
        text: `Hello ${mail.data.name},\n\nSomeone (maybe you) tried to create an account with this e-mail address, which already has one. Nothing was changed.\n\nSign in at ${base}/login, or choose a new password at ${base}/forgot-password if you forgot it. If it was not you, you can ignore this mail.`,
      };
    case 'reset_password':
      return {
        subject: 'Reset your password',
        text: `Hello ${mail.data.name},\n\nSomeone asked to reset your password. To choose a new one, open:\n${link('/reset-password', mail.data.token)}\n\nThis link expires in ${hours(EMAIL_TOKEN_TTL_HOURS.reset_password)} and works once. If you did not ask for it, ignore this mail.`,
      };
    case 'invitation':
      return {
        subject: `${mail.data.inviter} invited you to ${mail.data.organization}`,
        text: `${mail.data.inviter} invited you to join ${mail.data.organization}.\n\nAccept the invitation:\n${link('/invitations/accept', mail.data.token)}\n\nThis invitation expires in ${INVITATION_TTL_DAYS} days.`,
      };
    case 'broadcast':
      return { subject: mail.data.subject, text: mail.data.text };
    case 'booking_confirmation':
      // The manage link is the visitor's only key to the booking: it cancels or reschedules it.
      return {
        subject: `Your appointment at ${mail.data.business}: ${mail.data.when}`,
        text: `Your appointment is booked.\n\n${mail.data.service}, ${mail.data.when}\nReference: ${mail.data.reference}\n\nTo cancel or reschedule, open:\n${link(`/book/${mail.data.slug}/manage`, mail.data.token)}`,
      };
    case 'share_expiring':
      // The link itself is not in the mail (only its hash is stored): the drive's page of the item lists its shares.
      return {
        subject: `Your link to "${mail.data.item}" expires soon`,
        text: `Hello ${mail.data.name},\n\nThe ${mail.data.folder ? 'folder link' : 'share link'} you made for "${mail.data.item}" expires on ${mail.data.expiresAt} (UTC). Whoever holds it can no longer open it from then on.\n\nTo keep sharing, give it a later expiry from the ${mail.data.folder ? 'folder' : 'file'}'s shares:\n${base}/drive/${mail.data.folder ? 'folders' : 'files'}/${mail.data.nodeId}/shares`,
      };
    case 'booking_sign_in':
      return {
        subject: `Sign in to ${mail.data.business}`,
        text: `Open this link to see your appointments at ${mail.data.business}:\n${link(`/book/${mail.data.slug}/sign-in`, mail.data.token)}\n\nIt works once and expires in 15 minutes. If you did not ask for it, ignore this mail.`,
      };
    case 'booking_waitlist_joined':
      // The leave link is the visitor's key to their place: whoever joined with this address, its owner may leave.
      return {
        subject: `Waitlist for ${mail.data.service} at ${mail.data.business}, ${mail.data.day}`,
        text: `You are on the waitlist for ${mail.data.service} on ${mail.data.day}.\n\nWhen a slot frees up, the first in line is mailed a link that holds it for a while; if it is not claimed in time the next one is offered it.\n\nTo leave the waitlist, open:\n${link(`/book/${mail.data.slug}/waitlist/leave`, mail.data.token)}\n\nIf you did not ask for this, ignore this mail or leave through the link.`,
      };
    case 'booking_waitlist_offer':
      return {
        subject: `A slot freed up at ${mail.data.business}: ${mail.data.when}`,
        text: `A slot you waited for is held for you for ${mail.data.minutes} minutes.\n\n${mail.data.service}, ${mail.data.when}\n\nTo book it (or decline it, so the next in line gets it), open:\n${link(`/book/${mail.data.slug}/waitlist/hold`, mail.data.token)}\n\nUnclaimed, the hold ends and the slot goes to the next in line.`,
      };
    case 'booking_reminder':
      // The manage token is stored hashed only, so the reminder cannot repeat it: it points at the confirmation
      // mail's link and at the store's sign-in page (a magic link lists the visitor's bookings).
      return {
        subject: `Reminder: ${mail.data.service} at ${mail.data.business}, ${mail.data.when}`,
        text: `This is a reminder of your appointment.\n\n${mail.data.service}, ${mail.data.when}\nReference: ${mail.data.reference}\n\n${
          mail.data.slug
            ? `To cancel or reschedule, use the link of your confirmation mail, or sign in at ${base}/book/${mail.data.slug}/sign-in to see your appointments.`
            : 'To cancel or reschedule, contact the business.'
        }`,
      };
    case 'invoice_reminder':
      return invoiceReminderMail(mail.data);
  }
}

/**
 * A payment reminder (French B2B): what is due and when, and the mentions art. L441-10 of the Code de commerce
 * requires: late-payment penalties and the 40 EUR flat recovery indemnity.
 */
function invoiceReminderMail(d: Extract<MailTemplate, { template: 'invoice_reminder' }>['data']) {
  const amount = `${decimalIn(d.outstandingCents, d.currency).replace('.', ',')} ${d.currency}`;
  const [y, m, day] = d.dueDate.split('-');
  const due = `${day}/${m}/${y}`;
  const when =
    d.offsetDays < 0
      ? `arrive à échéance le ${due}`
      : d.offsetDays === 0
        ? `arrive à échéance aujourd'hui (${due})`
        : `était à régler le ${due} (retard de ${d.offsetDays} jours)`;
  return {
    subject: `${d.offsetDays > 0 ? 'Relance' : 'Rappel'} : facture ${d.number}${d.seller ? ` - ${d.seller}` : ''}`,
    text: `Bonjour,\n\nLa facture ${d.number}${d.seller ? ` de ${d.seller}` : ''} ${when}. Montant restant dû : ${amount}.${d.payUrl ? `\n\nPayer en ligne : ${d.payUrl}` : ''}\n\nSi le règlement a déjà été effectué, merci de ne pas tenir compte de ce message.\n\nConformément à l'article L441-10 du Code de commerce, tout retard de paiement entraîne des pénalités de retard au taux d'intérêt appliqué par la Banque centrale européenne à son opération de refinancement la plus récente majoré de 10 points, exigibles sans rappel, ainsi qu'une indemnité forfaitaire pour frais de recouvrement de 40 euros.`,
  };
}
