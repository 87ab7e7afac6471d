import { runRecurringInvoices } from '../../domain/core/invoices/recurring/runRecurringInvoices';
import { recurringInvoicesQueue } from '../../queues/invoices';
import { defineProcessor } from '../define';

/** Invoices the due periods of recurring invoices (domain/core/invoices/recurring/runRecurringInvoices.ts). */
export const recurringInvoicesProcessor = defineProcessor(recurringInvoicesQueue, {
  perform: async (_payload, { services }) => runRecurringInvoices(services),
});
