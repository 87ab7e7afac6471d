import { isUUID } from 'class-validator';
import { CrmImportUpload } from '../../../../entities/core/crmImportUpload';
import { notFound } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { customFieldsByKey } from '../store/customFields';
import { uploadPart } from '../store/importUploads';
import { suggestMapping, type SheetTarget } from './sheet';

export const SAMPLE_ROWS = 5;

export interface UploadPreview {
  upload: CrmImportUpload;
  sample: string[][];
  suggested: SheetTarget[];
}

/** An upload with its first rows and a suggested mapping of its columns onto fields and custom fields. */
export async function previewUpload(ctx: TenantContext, id: string): Promise<UploadPreview> {
  const upload = isUUID(id) ? await ctx.em.findOne(CrmImportUpload, { id }) : null;
  if (!upload || upload.rows < 0) throw notFound('Upload');
  const [first, fields] = await Promise.all([
    upload.importId ? null : uploadPart(ctx.em, upload.id, 0),
    customFieldsByKey(ctx.em),
  ]);
  return {
    upload,
    sample: first ? first.cells.slice(0, SAMPLE_ROWS) : [],
    suggested: suggestMapping(upload.columns, new Map(fields.map((f) => [f.key, f.label]))),
  };
}
