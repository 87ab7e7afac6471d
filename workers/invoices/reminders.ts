import { sendPaymentReminders } from '../../domain/core/invoices/reminders/sendPaymentReminders';
import { invoiceRemindersQueue } from '../../queues/invoices';
import { defineProcessor } from '../define';

/** Mails the payment reminders that are due (domain/core/invoices/reminders/sendPaymentReminders.ts). */
export const invoiceRemindersProcessor = defineProcessor(invoiceRemindersQueue, {
  perform: async (_payload, { services }) => ({ reminded: await sendPaymentReminders(services) }),
});
