import { conflict } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { deletePayload } from '../store/imports';
import { moveImportStatus } from '../store/importUploads';
import { getSheetImport } from './sheetImports';

/**
 * Cancels a spreadsheet import: the rows not written yet are dropped, the ones written stay (undo removes the
 * customers it created). The worker stops after the part it is writing.
 */
export async function cancelImport(ctx: TenantContext, id: string) {
  await getSheetImport(ctx, id);
  await ctx.em.transactional(async (em) => {
    if (!(await moveImportStatus(em, ctx.tenantId, id, ['queued', 'running', 'paused'], 'cancelled', true)))
      throw conflict('import_finished', 'The import is finished already');
    await deletePayload(em, id);
  });
  return getSheetImport(ctx, id);
}
