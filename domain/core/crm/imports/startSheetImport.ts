import { CrmImport } from '../../../../entities/core/crmImport';
import { newId } from '../../../../entities/base';
import { AppError } from '../../../../lib/errors';
import { crmImportQueue } from '../../../../queues/crm';
import type { TenantContext } from '../../../context';
import { enqueueStaged, stageJob } from '../../../jobs/stageJob';
import { deleteUploadRows, storeCheckedPart } from '../store/importUploads';
import { checkedMapping, openUpload, scanUpload, type DuplicateRowPolicy } from './scanUpload';

/**
 * Starts the import of an upload: every row is checked with the mapping, the valid ones stored as checked rows
 * of a customer import (the integration hub's pipeline: the worker upserts them part by part), in one
 * transaction with the import's status and its job. A row refused stops it all (422 `rows_invalid`, nothing
 * stored) unless `skipBadRows`: then the refused rows are in the import's errors by line. With `duplicates: 'skip'`
 * the rows matching existing customers are left out, listed in the errors (field `duplicate`) and counted refused;
 * with `duplicates: 'update'` they update the customer they match (the fields the file gives; the worker's same
 * statement per part), a second row matching the same customer being refused. The matching rows and the action
 * taken are kept with the import (`matches`). The upload's own rows are deleted once they are the import's.
 */
export async function startSheetImport(
  ctx: TenantContext,
  uploadId: string,
  input: { mapping: string[]; skipBadRows?: boolean; duplicates?: DuplicateRowPolicy },
): Promise<CrmImport> {
  const importId = newId();
  const { row, job } = await ctx.em.transactional(async (em) => {
    const scoped: TenantContext = { ...ctx, em, tenantId: ctx.tenantId, userId: ctx.userId, services: ctx.services };
    const upload = await openUpload(scoped, uploadId, true);
    const { defs, mapping } = await checkedMapping(scoped, upload, input.mapping);
    const made = em.create(CrmImport, {
      id: importId,
      tenantId: ctx.tenantId,
      kind: 'customers',
      status: 'queued',
      total: upload.rows,
      failed: 0,
      errors: [],
      apiKeyId: null,
      finishedAt: null,
    });
    await em.flush();
    const outcome = await scanUpload(
      scoped,
      upload,
      defs,
      mapping,
      importId,
      (part, rows) => storeCheckedPart(em, importId, part, rows),
      input.duplicates,
    );
    if (outcome.invalid && !input.skipBadRows)
      throw new AppError(
        422,
        'rows_invalid',
        `${outcome.invalid} of ${upload.rows} rows are refused; nothing was imported. Fix them, or start again with skipBadRows to import the others`,
        outcome.errors.map((e) => ({ field: `line ${e.index}: ${e.field}`, message: e.message })),
      );
    Object.assign(made, {
      failed: outcome.invalid + outcome.skipped,
      errors: outcome.errors,
      matches: outcome.matches.map(({ index, customerId, reasons, action }) => ({
        index,
        customerId,
        reasons,
        action,
      })),
    });
    upload.importId = importId;
    const staged = stageJob(
      em,
      crmImportQueue,
      { importId, tenantId: ctx.tenantId, kind: 'customers' },
      `crm-import.${importId}`,
    );
    await em.flush();
    await deleteUploadRows(em, upload.id);
    return { row: made, job: staged };
  });
  await enqueueStaged(ctx.services, [job]);
  return row;
}
