import { conflict } from '../../../../lib/errors';
import { newId } from '../../../../entities/base';
import { crmImportQueue } from '../../../../queues/crm';
import type { TenantContext } from '../../../context';
import { enqueueStaged, stageJob } from '../../../jobs/stageJob';
import { moveImportStatus } from '../store/importUploads';
import { getSheetImport } from './sheetImports';

/** Resumes a paused spreadsheet import: queued again with a job of its own (it goes on at the first part left). */
export async function resumeImport(ctx: TenantContext, id: string) {
  await getSheetImport(ctx, id);
  const job = await ctx.em.transactional(async (em) => {
    if (!(await moveImportStatus(em, ctx.tenantId, id, ['paused'], 'queued')))
      throw conflict('import_not_paused', 'Only a paused import can be resumed');
    const staged = stageJob(
      em,
      crmImportQueue,
      { importId: id, tenantId: ctx.tenantId, kind: 'customers' },
      `crm-import.${id}.${newId()}`,
    );
    await em.flush();
    return staged;
  });
  await enqueueStaged(ctx.services, [job]);
  return getSheetImport(ctx, id);
}
