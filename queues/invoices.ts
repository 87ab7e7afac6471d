import { defineQueue } from './define';

/**
 * The clock's pass over payment reminders (one job per hourly slot, job id invoice-reminders-<slot>). A pass mails
 * each due step of each open invoice once: the reminder's unique key decides, so overlapping or repeated passes
 * send nothing twice.
 */
export const invoiceRemindersQueue = defineQueue<{ slot: string }>('invoice-reminders', {
  concurrency: 1,
  defaults: { attempts: 3, removeOnComplete: { count: 100 } },
});

/**
 * The clock's pass over recurring invoices (one job per hourly slot, job id invoice-recurring-<slot>). A pass
 * invoices each due period of each active schedule once: the unique (schedule, period) key decides, so overlapping
 * or repeated passes invoice nothing twice, and a pass after an outage catches up every missed period.
 */
export const recurringInvoicesQueue = defineQueue<{ slot: string }>('invoice-recurring', {
  concurrency: 1,
  defaults: { attempts: 3, removeOnComplete: { count: 100 } },
});
