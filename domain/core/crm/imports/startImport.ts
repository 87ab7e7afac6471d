import { isUUID } from 'class-validator';
import { CrmImport, type ImportKind } from '../../../../entities/core/crmImport';
import { newId } from '../../../../entities/base';
import { notFound } from '../../../../lib/errors';
import { crmImportQueue } from '../../../../queues/crm';
import type { TenantContext } from '../../../context';
import { bound } from '../sql';

export const MAX_IMPORT_RECORDS = 10_000;

/**
 * Accepts a bulk import: stores its status row and its records, and enqueues its job (the worker checks each
 * record, upserts the valid ones by externalId and reports the others in the status).
 */
export async function startImport(ctx: TenantContext, kind: ImportKind, records: unknown[], apiKeyId: string | null): Promise<CrmImport> {
  const id = newId();
  const row = await ctx.em.transactional(async (em) => {
    const made = em.create(CrmImport, { id, tenantId: ctx.tenantId, kind, status: 'queued', total: records.length, apiKeyId, finishedAt: null });
    await em.flush();
    await bound(em, 'insert into crm_import_payloads (import_id, records) values (?, ?)', [id, Buffer.from(JSON.stringify(records))]);
    return made;
  });
  await ctx.services.queues.add(crmImportQueue, { importId: id, tenantId: ctx.tenantId, kind }, { jobId: `crm-import.${id}` });
  return row;
}

export async function getImport(ctx: TenantContext, id: string): Promise<CrmImport> {
  const found = isUUID(id) ? await ctx.em.findOne(CrmImport, { id }) : null;
  if (!found) throw notFound('Import');
  return found;
}
