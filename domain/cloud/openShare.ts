import type { SharePermission } from '../../entities/cloud/share';
import { AppError, forbidden, notFound } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import type { Services } from '../services';
import { liveShare, sharedFile, shareProof, shareUrl } from './linkShare';
import { liveFolderOf } from './store/nodes';
import { signedToken } from './tokens';

export interface OpenedShare {
  kind: 'file' | 'folder';
  permission: SharePermission;
  /** The file's name, or the drop folder's. */
  name: string;
  /** Files only. */
  size: number | null;
  contentType: string | null;
  /** The download address (view and edit links), or null (a drop folder shows nothing). */
  url: string | null;
  /** Where PUTs go: the file's content (edit links) or new files of the folder (`&name=`; upload links). */
  uploadUrl: string | null;
  /** Folder `view` links: the listing of the shared folder (GET; `&folderId=` for a folder inside it). */
  listUrl: string | null;
  expiresAt: Date;
}

/**
 * Opens a link share anonymously: 404, 410 as liveShare, a file or folder no longer live 404, 401
 * `share_password_required` / 403 `share_password_invalid`. Answers the addresses the link's permission allows,
 * valid CLOUD_LINK_TTL_SECONDS: addresses of this app naming the link and signed over the share (the proof the
 * password was given), never a storage address, whose key names the organisation.
 */
export async function openShare(services: Services, token: string, password: string | undefined): Promise<OpenedShare> {
  const share = await liveShare(services, token);
  if (share.passwordHash) {
    if (!password) throw new AppError(401, 'share_password_required', 'This share link needs its password');
    if (!(await verifyPassword(share.passwordHash, password)))
      throw forbidden('share_password_invalid', 'The password of this share link is wrong');
  }
  const ttl = services.config.CLOUD_LINK_TTL_SECONDS;
  const base = shareUrl(services, token);
  const t = signedToken(services, 'share', shareProof(share), ttl);
  const expiresAt = new Date(Date.now() + ttl * 1000);
  if (share.nodeKind === 'folder') {
    const folder = await liveFolderOf(services.orm.em.fork(), share.tenantId, share.nodeId);
    if (!folder) throw notFound('Share');
    const upload = share.permission === 'upload';
    return {
      kind: 'folder',
      permission: share.permission,
      name: folder.name,
      size: null,
      contentType: null,
      url: null,
      uploadUrl: upload ? `${base}/files?t=${t}` : null,
      listUrl: upload ? null : `${base}/items?t=${t}`,
      expiresAt,
    };
  }
  const file = await sharedFile(services, share);
  return {
    kind: 'file',
    permission: share.permission,
    name: file.name,
    size: file.size,
    contentType: file.contentType ?? null,
    url: `${base}/download?t=${t}`,
    uploadUrl: share.permission === 'edit' ? `${base}/content?t=${t}` : null,
    listUrl: null,
    expiresAt,
  };
}
