import { einvoiceQueue } from '../../../../queues/einvoice';
import { RELAY_AFTER_MS } from '../../../jobs/relayStagedJobs';
import { redriveJob } from '../../../jobs/redriveJob';
import type { Services } from '../../../services';
import { queuedSubmissionsToRedrive } from '../store';
import { submitJobId } from './submitEInvoice';

const BATCH = 500;

/**
 * E-invoice submissions queued (202) between two days and RELAY_AFTER_MS ago and not handed to the platform yet:
 * each gets the job of its current round (one per failure so far, as submitEInvoice names it) that will run. A
 * round's job failing for good marks the submission failed (failSubmission), so one still queued whose job failed
 * had that hook cut short: the job is retried. Sending stays at most once (the submission's id is the platform's
 * Idempotency-Key). Returns how many were offered again.
 */
export async function redriveSubmissions(services: Services): Promise<number> {
  const rows = await queuedSubmissionsToRedrive(services.orm.em.fork(), RELAY_AFTER_MS, BATCH);
  let offered = 0;
  for (const row of rows) {
    const job = { kind: 'submit' as const, tenantId: row.tenant_id, invoiceId: row.invoice_id };
    if ((await redriveJob(services, einvoiceQueue, submitJobId(row.invoice_id, row.round), job, () => true)) !== 'live')
      offered++;
  }
  return offered;
}
