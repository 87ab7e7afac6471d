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
