import type { TenantContext } from '../context';
import { getItem } from './items';
import { mayShareLinks, recordShare, type CreatedShare } from './shareFile';
import { checkShareFields } from './shareRules';

export interface FolderShareProps {
  expiresAt?: Date;
  password?: string;
  /** `upload` (the default): a drop folder; `view`: the link lists the folder's subtree and downloads its files. */
  permission?: 'upload' | 'view';
}

/**
 * A link to a live folder of the drive. A drop folder (`upload`): whoever holds it (and its password) puts files into
 * the folder, never seeing, downloading or replacing what is there; the files count in the organisation's quota like
 * any upload. A `view` link lists the folder and everything below it and downloads its files (browseShare.ts).
 * Needs cloud.share, as every link.
 */
export async function shareFolder(
  ctx: TenantContext,
  folderId: string,
  props: FolderShareProps,
): Promise<CreatedShare> {
  const folder = await getItem(ctx, folderId, 'folder');
  await mayShareLinks(ctx);
  checkShareFields({ kind: 'link', ...props });
  return recordShare(
    ctx,
    { folderId: folder.id },
    { kind: 'link', ...props, memberIds: [], permission: props.permission ?? 'upload' },
  );
}
