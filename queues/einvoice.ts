import { defineQueue } from './define';

/**
 * E-invoice work: `submit` hands one issued document to the platform (job id einvoice.submit.<invoiceId>, so it
 * is enqueued once; a resubmission after failing adds .<round>; the submission row makes a retried or replayed
 * job send it at most once); `poll` (the
 * clock, every 10 minutes) reads the lifecycle of the documents whose status is not final yet; `status` reports one
 * lifecycle status the suite emits (job id einvoice.status.<messageId>, staged with the status change);
 * `ereporting` (the clock, hourly) builds the e-reports of closed periods (domain/core/invoices/ereporting/), `at`
 * the clock's time (`tenantId`: one organisation's pass only, e.g. an operator catching it up); `ereport` sends one (job id einvoice.ereport.<reportId>[.<round>], staged with the report).
 * Platform outages are the failures expected here: eight attempts, exponential from 10 s (about 20 minutes).
 */
export type EInvoiceJob =
  | { kind: 'submit'; tenantId: string; invoiceId: string }
  | { kind: 'poll'; slot: string }
  | { kind: 'status'; tenantId: string; messageId: string }
  | { kind: 'ereporting'; slot: string; at?: string; tenantId?: string }
  | { kind: 'ereport'; tenantId: string; reportId: string };

export const einvoiceQueue = defineQueue<EInvoiceJob>('einvoice', {
  concurrency: 4,
  defaults: { attempts: 8, backoff: { type: 'exponential', delay: 10_000 } },
});
