import { einvoiceQueue } from '../../../../queues/einvoice';
import { RELAY_AFTER_MS } from '../../../jobs/relayStagedJobs';
import { redriveJob } from '../../../jobs/redriveJob';
import type { Services } from '../../../services';
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
  const rows = await services.orm.em.fork().execute<{ tenant_id: string; invoice_id: string; round: number }[]>(
    `select s.tenant_id, s.invoice_id,
            (select count(*)::int from inv_einvoice_events e where e.tenant_id = s.tenant_id and e.invoice_id = s.invoice_id and e.status = 'failed') as round
       from inv_einvoice_submissions s
      where s.status = 'queued' and s.platform_id is null and s.updated_at > now() - interval '2 days' and s.updated_at < now() - ? * interval '1 millisecond'
      order by s.updated_at limit ${BATCH}`,
    [RELAY_AFTER_MS],
  );
  let offered = 0;
  for (const row of rows) {
    const job = { kind: 'submit' as const, tenantId: row.tenant_id, invoiceId: row.invoice_id };
    if ((await redriveJob(services, einvoiceQueue, submitJobId(row.invoice_id, row.round), job, () => true)) !== 'live') offered++;
  }
  return offered;
}
