import type { TenantContext } from '../../../context';
import { checkedMapping, openUpload, scanUpload, type DuplicateRowPolicy, type ScanOutcome } from './scanUpload';

/** The dry run of a spreadsheet import: every row checked with the mapping and the duplicates policy, nothing written. */
export async function checkUpload(
  ctx: TenantContext,
  id: string,
  mapping: string[],
  duplicates: DuplicateRowPolicy = 'create',
): Promise<ScanOutcome & { rows: number }> {
  const upload = await openUpload(ctx, id);
  const checked = await checkedMapping(ctx, upload, mapping);
  const outcome = await scanUpload(ctx, upload, checked.defs, checked.mapping, id, undefined, duplicates);
  return { rows: upload.rows, ...outcome };
}
