import type { ImportKind } from '../../../../entities/core/crmImport';
import { crmImportQueue } from '../../../../queues/crm';
import { RELAY_AFTER_MS } from '../../../jobs/relayStagedJobs';
import { redriveJob } from '../../../jobs/redriveJob';
import type { Services } from '../../../services';

const BATCH = 500;

/**
 * Imports accepted (202) between two days and RELAY_AFTER_MS ago and still queued or running: each gets a job that
 * will run. Its job failing for good marks the import failed (failImport, run before the failure is recorded), so
 * one still open whose job failed had that hook cut short: the job is retried. Returns how many were offered again.
 */
export async function redriveImports(services: Services): Promise<number> {
  const rows = await services.orm.em
    .fork()
    .execute<{ id: string; tenant_id: string; kind: ImportKind }[]>(
      `select id, tenant_id, kind from crm_imports where status in ('queued', 'running') and created_at > now() - interval '2 days' and created_at < now() - ? * interval '1 millisecond' order by created_at limit ${BATCH}`,
      [RELAY_AFTER_MS],
    );
  let offered = 0;
  for (const row of rows) {
    const job = { importId: row.id, tenantId: row.tenant_id, kind: row.kind };
    if ((await redriveJob(services, crmImportQueue, `crm-import.${row.id}`, job, () => true)) !== 'live') offered++;
  }
  return offered;
}
