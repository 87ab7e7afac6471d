import { isUUID } from 'class-validator';
import { CrmImport } from '../../../../entities/core/crmImport';
import { CrmImportUpload } from '../../../../entities/core/crmImportUpload';
import { notFound } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';

/** A spreadsheet import of the organisation (an import started from an upload; 404 otherwise) and its upload. */
export async function getSheetImport(
  ctx: TenantContext,
  id: string,
): Promise<{ row: CrmImport; upload: CrmImportUpload }> {
  const upload = isUUID(id) ? await ctx.em.findOne(CrmImportUpload, { importId: id }) : null;
  const row = upload ? await ctx.em.findOne(CrmImport, { id }, { refresh: true }) : null;
  if (!upload || !row) throw notFound('Import');
  return { row, upload };
}
