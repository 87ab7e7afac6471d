import { isUUID } from 'class-validator';
import { CrmImport, type ImportKind } from '../../../../entities/core/crmImport';
import { newId } from '../../../../entities/base';
import { notFound } from '../../../../lib/errors';
import { crmImportQueue } from '../../../../queues/crm';
import type { TenantContext } from '../../../context';
import { enqueueStaged, stageJob } from '../../../jobs/stageJob';
import { checkCustomers } from './checkCustomers';
import { storePayload } from '../store/imports';

export const MAX_IMPORT_RECORDS = 10_000;

/**
 * Accepts a bulk import: stores its status row, its records and its job in one transaction (the job is
 * enqueued once committed, or by the relay after a crash or a Redis outage). Customer records are
 * checked here, once: the refused ones are in the status from the start, the valid ones are stored as rows
 * PostgreSQL upserts by externalId without the worker parsing them again. Deal records are checked by the
 * worker (they name customers and stages that earlier imports may still be writing).
 */
export async function startImport(
  ctx: TenantContext,
  kind: ImportKind,
  records: unknown[],
  apiKeyId: string | null,
): Promise<CrmImport> {
  const id = newId();
  const checked = kind === 'customers' ? await checkCustomers(ctx, records) : null;
  const { row, job } = await ctx.em.transactional(async (em) => {
    const errors = checked?.errors ?? [];
    const made = em.create(CrmImport, {
      id,
      tenantId: ctx.tenantId,
      kind,
      status: 'queued',
      total: records.length,
      failed: errors.length,
      errors,
      apiKeyId,
      finishedAt: null,
    });
    const staged = stageJob(em, crmImportQueue, { importId: id, tenantId: ctx.tenantId, kind }, `crm-import.${id}`);
    await em.flush();
    await storePayload(em, id, checked ? checked.rows : records, !!checked);
    return { row: made, job: staged };
  });
  await enqueueStaged(ctx.services, [job]);
  return row;
}

export async function getImport(ctx: TenantContext, id: string): Promise<CrmImport> {
  const found = isUUID(id) ? await ctx.em.findOne(CrmImport, { id }) : null;
  if (!found) throw notFound('Import');
  return found;
}
