import { CrmImport, type ImportRecordError } from '../../../../entities/core/crmImport';
import type { CrmImportJob } from '../../../../queues/crm';
import { tenantContext } from '../../../context';
import { notify } from '../../../notifications/notify';
import type { Services } from '../../../services';
import { importCustomers } from './importCustomers';
import { importDeals } from './importDeals';
import { bound } from '../sql';

export interface ImportOutcome {
  created: number;
  updated: number;
  errors: ImportRecordError[];
}

/** Performs an import job (idempotent: records upsert by externalId) and records its outcome. */
export async function runImport(services: Services, job: CrmImportJob): Promise<ImportOutcome> {
  const ctx = tenantContext(services, job.tenantId);
  const row = await ctx.em.findOne(CrmImport, { id: job.importId });
  if (!row) return { created: 0, updated: 0, errors: [] };
  // Processed already (a retry after the outcome was written): nothing left to do.
  if (row.status === 'completed' || row.status === 'failed') return { created: row.created, updated: row.updated, errors: row.errors };
  row.status = 'running';
  await ctx.em.flush();
  if (job.kind === 'customers') {
    // The counts and errors are in crm_imports (written at the call and with each part).
    await importCustomers(ctx, job.importId);
    // A part whose asynchronous commit a PostgreSQL crash lost is still stored (its deletion was lost with it):
    // the job fails and its retry imports it, rather than completing without it.
    const [left] = await bound<{ part: number }>(ctx.em, 'select part from crm_import_payloads where import_id = ? limit 1', [job.importId]);
    if (left) throw new Error(`import ${job.importId}: part ${left.part} is still stored (lost commit); retrying`);
    await ctx.em.refresh(row);
    Object.assign(row, { status: 'completed', finishedAt: new Date(), updatedAt: new Date() });
    await ctx.em.flush();
  } else {
    const [payload] = await bound<{ records: Buffer }>(ctx.em, 'select records from crm_import_payloads where import_id = ?', [job.importId]);
    const outcome = await importDeals(ctx, payload ? (JSON.parse(payload.records.toString()) as unknown[]) : []);
    Object.assign(row, { status: 'completed', created: outcome.created, updated: outcome.updated, failed: outcome.errors.length, errors: outcome.errors, finishedAt: new Date(), updatedAt: new Date() });
    await ctx.em.transactional(async (em) => {
      await em.flush();
      await em.execute('delete from crm_import_payloads where import_id = ?', [job.importId]);
    });
  }
  await notify(services, 'core', [{ event: 'import.completed', tenantId: job.tenantId, data: { importId: job.importId, kind: job.kind, created: row.created, updated: row.updated, failed: row.failed } }]);
  return { created: row.created, updated: row.updated, errors: row.errors };
}

/**
 * An import whose job exhausted its attempts is marked failed (its status route says so): `failed` counts every
 * record not written (the refused ones and those never upserted), and the refused records stay reported. The
 * cause is logged, not shown: a driver's message is no answer for the integrator.
 */
export async function failImport(services: Services, job: CrmImportJob, error: Error): Promise<void> {
  services.logger.warn({ importId: job.importId, tenantId: job.tenantId, err: error.message }, 'crm import failed');
  const ctx = tenantContext(services, job.tenantId);
  const whole: ImportRecordError = { index: -1, externalId: null, field: 'import', message: 'the import stopped before it completed: the records not counted as created or updated were not written; send them again' };
  await ctx.em.transactional(async (em) => {
    await bound(
      em,
      `update crm_imports set status = 'failed', finished_at = now(), updated_at = now(), failed = greatest(total - created - updated, 0), errors = errors || ?::jsonb
        where id = ? and tenant_id = ? and status in ('queued', 'running')`,
      [JSON.stringify([whole]), job.importId, job.tenantId],
    );
    await bound(em, 'delete from crm_import_payloads where import_id = ?', [job.importId]);
  });
}
