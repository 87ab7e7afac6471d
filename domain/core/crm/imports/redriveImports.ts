import { crmImportQueue } from '../../../../queues/crm';
import { RELAY_AFTER_MS } from '../../../jobs/relayStagedJobs';
import { redriveJob } from '../../../jobs/redriveJob';
import type { Services } from '../../../services';
import { openImports } from '../store/imports';

const BATCH = 500;

/**
 * Imports accepted (202) between two days and RELAY_AFTER_MS ago and still queued or running: each gets a job that
 * will run. Its job failing for good marks the import failed (failImport, run before the failure is recorded), so
 * one still open whose job failed had that hook cut short: the job is retried. Returns how many were offered again.
 */
export async function redriveImports(services: Services): Promise<number> {
  const rows = await openImports(services.orm.em.fork(), RELAY_AFTER_MS, BATCH);
  let offered = 0;
  for (const row of rows) {
    const job = { importId: row.id, tenantId: row.tenant_id, kind: row.kind };
    if ((await redriveJob(services, crmImportQueue, `crm-import.${row.id}`, job, () => true)) !== 'live') offered++;
  }
  return offered;
}
