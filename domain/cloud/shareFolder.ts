import type { TenantContext } from '../context';
import { getItem } from './items';
import { mayShareLinks, recordShare, type CreatedShare } from './shareFile';
import { checkShareFields } from './shareRules';

export interface FolderShareProps {
  expiresAt?: Date;
  password?: string;
}

/**
 * A drop folder: an upload-only link to a live folder of the drive. Whoever holds it (and its password) puts files
 * into the folder, never seeing, downloading or replacing what is there; the files count in the organisation's quota
 * like any upload. Needs cloud.share, as every link.
 */
export async function shareFolder(
  ctx: TenantContext,
  folderId: string,
  props: FolderShareProps,
): Promise<CreatedShare> {
  const folder = await getItem(ctx, folderId, 'folder');
  await mayShareLinks(ctx);
  checkShareFields({ kind: 'link', ...props });
  return recordShare(ctx, { folderId: folder.id }, { kind: 'link', ...props, memberIds: [], permission: 'upload' });
}
