import { newId } from '../../../../entities/base';
import type { MailMessage } from '../../../../entities/platform/mail';
import { composeMail, dispatchMails } from '../../../platform/mail';
import type { Services } from '../../../services';
import { defaultAccountingSettings } from '../accounting/accountingSettings';
import { claimReminder, openInvoicesToRemind, setReminderMail } from '../accounting/store';
import { invoicePayLink } from '../customerLinks';
import { invoiceToday } from '../lookup';
import { reminderStep } from './reminderStep';

/** Open invoices read by one statement of a pass. */
const BATCH = 500;

/**
 * Mails the payment reminders that are due, for every organisation with reminders on: for each open invoice
 * (issued, partially paid or partially credited: a paid or credited one is never reminded) the step of its
 * organisation's plan it is at today (reminderStep.ts), unless that step was mailed already. Each reminder row is
 * inserted with its mail in one transaction, and the unique key (invoice, step) lets only one of two runs insert
 * it: a pass run twice, or two at once, mails each step once. An invoice without any e-mail address is skipped.
 * Returns how many were mailed.
 */
export async function sendPaymentReminders(services: Services, now = new Date()): Promise<number> {
  const today = invoiceToday(now);
  let total = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const em = services.orm.em.fork();
    const candidates = await openInvoicesToRemind(em, today, defaultAccountingSettings.reminderOffsets, after, BATCH);
    const mails: MailMessage[] = [];
    for (const c of candidates) {
      const step = reminderStep(c.offsets, c.due_date, today);
      if (step === null || !c.mail_to) continue;
      const outstandingCents = Number(c.outstanding_cents);
      await em.fork().transactional(async (tx) => {
        const id = newId();
        const claimed = await claimReminder(tx, {
          id,
          tenantId: c.tenant_id,
          invoiceId: c.invoice_id,
          customerId: c.customer_id,
          offsetDays: step,
          dueDate: c.due_date,
          outstandingCents,
          mailTo: c.mail_to!,
        });
        if (!claimed) return;
        const mail = composeMail(tx, services, {
          to: c.mail_to!,
          tenantId: c.tenant_id,
          dedupeKey: `invoice-reminder:${c.invoice_id}:${step}`,
          template: 'invoice_reminder',
          data: {
            seller: c.seller_name ?? '',
            number: c.number,
            dueDate: c.due_date,
            offsetDays: step,
            outstandingCents,
            currency: c.currency,
            payUrl: c.online_payment && services.payments ? invoicePayLink(services, c.invoice_id) : null,
          },
        });
        await tx.flush();
        await setReminderMail(tx, id, mail.id);
        mails.push(mail);
      });
    }
    await dispatchMails(services, mails);
    total += mails.length;
    if (candidates.length < BATCH) return total;
    after = candidates[candidates.length - 1].invoice_id;
  }
}
