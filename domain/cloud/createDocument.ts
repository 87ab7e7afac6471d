import type { TenantContext } from '../context';
import { getItem, type CloudItem } from './items';
import { sanitizeName } from './names';
import { documentFormats, emptyDocument, type DocumentType } from './odf';
import { storeFile } from './storeFile';

/**
 * An empty office document (doc: .odt, sheet: .ods, slides: .odp) created as a file of the drive, counted in
 * the quota like an upload. The extension is added when the name lacks it; a taken name becomes "name (2)".
 */
export async function createDocument(
  ctx: TenantContext,
  props: { type: DocumentType; name?: string; folderId?: string | null },
): Promise<CloudItem> {
  const format = documentFormats[props.type];
  const base = sanitizeName(props.name ?? format.defaultName);
  const name = base.toLowerCase().endsWith(`.${format.extension}`) ? base : `${base}.${format.extension}`;
  const node = await storeFile(ctx, {
    name,
    body: emptyDocument(props.type),
    contentType: format.mediaType,
    folderId: props.folderId,
  });
  return getItem(ctx, node.id, 'file');
}
