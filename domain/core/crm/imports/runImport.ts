import { CrmImport, type ImportRecordError } from '../../../../entities/core/crmImport';
import { crmHealthQueue, type CrmImportJob } from '../../../../queues/crm';
import { tenantContext, type TenantContext } from '../../../context';
import { notify } from '../../../notifications/notify';
import type { Services } from '../../../services';
import { importCustomers } from './importCustomers';
import { importDeals } from './importDeals';
import {
  anyPartLeft,
  completeImportRow,
  dealRecords,
  deletePayload,
  failImportRow,
  lockImportStatus,
} from '../store/imports';
import { moveImportStatus } from '../store/importUploads';

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
  if (row.status !== 'queued' && row.status !== 'running')
    return { created: row.created, updated: row.updated, errors: row.errors };
  // Paused or cancelled (a spreadsheet import) since it was read: left as it is.
  if (!(await moveImportStatus(ctx.em, job.tenantId, job.importId, ['queued', 'running'], 'running')))
    return { created: row.created, updated: row.updated, errors: row.errors };
  if (job.kind === 'customers') {
    // The counts and errors are in crm_imports (written at the call and with each part).
    if ((await importCustomers(ctx, job.importId)) === 'stopped') {
      await ctx.em.refresh(row);
      return { created: row.created, updated: row.updated, errors: row.errors };
    }
    // A part whose asynchronous commit a PostgreSQL crash lost is still stored (its deletion was lost with it):
    // the job fails and its retry imports it, rather than completing without it.
    const left = await anyPartLeft(ctx.em, job.importId);
    if (left !== null) throw new Error(`import ${job.importId}: part ${left} is still stored (lost commit); retrying`);
    // Completed unless paused or cancelled after its last part.
    const completed = await moveImportStatus(ctx.em, job.tenantId, job.importId, ['running'], 'completed', true);
    await ctx.em.refresh(row);
    if (!completed) return { created: row.created, updated: row.updated, errors: row.errors };
  } else {
    const touched = await completeDealImport(ctx, job.importId);
    await ctx.em.refresh(row);
    // Completed by another run of the job meanwhile (it notified): its outcome.
    if (!touched) return { created: row.created, updated: row.updated, errors: row.errors };
    // Scores requested once committed, best effort like every score request (the nightly pass repairs a lost
    // one): the import, completed, is not redone for it.
    const batches = [];
    for (let at = 0; at < touched.length; at += 500)
      batches.push({ payload: { tenantId: job.tenantId, customerIds: touched.slice(at, at + 500) } });
    try {
      if (batches.length) await services.queues.addBulk(crmHealthQueue, batches);
    } catch (err) {
      services.logger.warn(
        { err: (err as Error).message, importId: job.importId },
        'health recomputation after a deal import not requested',
      );
    }
  }
  await notify(services, 'core', [
    {
      event: 'import.completed',
      tenantId: job.tenantId,
      data: { importId: job.importId, kind: job.kind, created: row.created, updated: row.updated, failed: row.failed },
    },
  ]);
  return { created: row.created, updated: row.updated, errors: row.errors };
}

/**
 * A deal import in one transaction: its deals, its outcome (status, counts, errors) and the deletion of its
 * payload commit together, so a job that fails anywhere has written nothing and its retry counts each deal it
 * creates as created (the upsert's `xmax = 0`), exactly once. The import row is locked first: a job run twice at
 * once imports once, the second finding it completed. Returns the customers whose deals were written (null when
 * the import was completed or failed already).
 */
async function completeDealImport(ctx: TenantContext, importId: string): Promise<string[] | null> {
  return ctx.em.transactional(async (em) => {
    const status = await lockImportStatus(em, ctx.tenantId, importId);
    if (!status || status === 'completed' || status === 'failed') return null;
    const scoped: TenantContext = { em, tenantId: ctx.tenantId, userId: ctx.userId, services: ctx.services };
    const outcome = await importDeals(scoped, await dealRecords(em, importId));
    await completeImportRow(em, ctx.tenantId, importId, outcome);
    await deletePayload(em, importId);
    return outcome.customerIds;
  });
}

/**
 * An import whose job exhausted its attempts is marked failed (its status route says so): `failed` counts every
 * record not written (the refused ones and those never upserted), and the refused records stay reported. The
 * cause is logged, not shown: a driver's message is no answer for the integrator.
 */
export async function failImport(services: Services, job: CrmImportJob, error: Error): Promise<void> {
  services.logger.warn({ importId: job.importId, tenantId: job.tenantId, err: error.message }, 'crm import failed');
  const ctx = tenantContext(services, job.tenantId);
  const whole: ImportRecordError = {
    index: -1,
    externalId: null,
    field: 'import',
    message:
      'the import stopped before it completed: the records not counted as created or updated were not written; send them again',
  };
  await ctx.em.transactional(async (em) => {
    await failImportRow(em, job.tenantId, job.importId, whole);
    await deletePayload(em, job.importId);
  });
}
