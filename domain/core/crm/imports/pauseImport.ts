import { conflict } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { moveImportStatus } from '../store/importUploads';
import { getSheetImport } from './sheetImports';

/** Pauses a spreadsheet import: the worker stops after the part it is writing (the rest waits, stored). */
export async function pauseImport(ctx: TenantContext, id: string) {
  await getSheetImport(ctx, id);
  if (!(await moveImportStatus(ctx.em, ctx.tenantId, id, ['queued', 'running'], 'paused')))
    throw conflict('import_not_running', 'Only a queued or running import can be paused');
  return getSheetImport(ctx, id);
}
