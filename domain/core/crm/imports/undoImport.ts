import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { conflict } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { lockImportStatus } from '../store/imports';
import { deleteImportedCustomers, moveImportStatus } from '../store/importUploads';
import { getSheetImport } from './sheetImports';

/**
 * Undoes a finished spreadsheet import: the customers it created are deleted (with their activities, relations
 * and scores), in one transaction; customers it updated (by external id) keep their values. Refused while it runs
 * (pause or cancel it first), and whole (409 `import_in_use`) when deals, invoices or appointments were since
 * made for one of its customers.
 */
export async function undoImport(ctx: TenantContext, id: string) {
  await getSheetImport(ctx, id);
  let removed = 0;
  try {
    await ctx.em.transactional(async (em) => {
      const status = await lockImportStatus(em, ctx.tenantId, id);
      if (!(status === 'completed' || status === 'cancelled' || status === 'failed'))
        throw conflict(
          'import_not_finished',
          'Only a completed, cancelled or failed import can be undone (pause or cancel it first)',
        );
      removed = await deleteImportedCustomers(em, ctx.tenantId, id);
      await moveImportStatus(em, ctx.tenantId, id, [status], 'undone');
    });
  } catch (err) {
    if (err instanceof ForeignKeyConstraintViolationException)
      throw conflict(
        'import_in_use',
        'Deals, invoices or other records refer to customers of this import; delete or reassign them first',
      );
    throw err;
  }
  return { ...(await getSheetImport(ctx, id)), removed };
}
