import type { CloudShare } from '../../entities/cloud/share';
import type { Em } from '../../lib/db';
import { forbidden, notFound } from '../../lib/errors';
import type { Page } from '../../lib/pagination';
import type { Services } from '../services';
import { decodeCursor, pageOf } from './cursors';
import { sharedBytes, type SharedDownload } from './downloadShare';
import { liveShare, shareProof, shareUrl } from './linkShare';
import type { ContentsProps } from './listContents';
import { ROOT_ID } from './names';
import { linkAllows } from './shareRules';
import { folderPage, folderPath, sortType } from './store/items';
import { ancestorIds, liveFileOf, liveFolderOf } from './store/nodes';
import { checkToken, signedToken } from './tokens';

/** An item of a shared folder as the link's holder sees it: nothing of the organisation or its members. */
export interface SharedItem {
  id: string;
  kind: 'file' | 'folder';
  name: string;
  size: number;
  contentType: string | null;
  updatedAt: Date;
  /** Files: this app's address of its bytes, valid as long as the page's t. */
  downloadUrl: string | null;
}

export interface SharedFolderPage {
  folder: { id: string; name: string };
  /** From the shared folder down to the folder listed. */
  path: { id: string; name: string }[];
  page: Page<SharedItem>;
}

/** A folder link's use: the link as every use checks it, t (the password's proof), and a `view` folder link. */
async function folderLink(services: Services, token: string, t: string | undefined): Promise<CloudShare> {
  const share = await liveShare(services, token);
  checkToken(services, 'share', shareProof(share), t);
  if (!linkAllows(share, 'browse')) throw forbidden('share_permission_denied', 'This link does not list a folder');
  return share;
}

/**
 * Whether a live item lies in the shared folder's subtree (the folder itself included), looked up at every use: an
 * item moved out of it is out of the link's reach at once; one trashed is not live (trash takes the whole subtree).
 */
const insideShare = async (em: Em, share: CloudShare, nodeId: string) =>
  (await ancestorIds(em, nodeId)).has(share.nodeId);

/**
 * A page of a folder inside a `view` folder link (the shared folder by default; any live folder of its subtree by
 * id), folders first then files, sorted as the drive's own listing; each file with its download address. Anything
 * outside the subtree, or not live, is 404, as an unknown id.
 */
export async function browseShare(
  services: Services,
  token: string,
  t: string | undefined,
  props: ContentsProps & { folderId?: string },
): Promise<SharedFolderPage> {
  const share = await folderLink(services, token, t);
  const em = services.orm.em.fork();
  const folderId = props.folderId ?? share.nodeId;
  const folder = await liveFolderOf(em, share.tenantId, folderId);
  if (!folder || !(await insideShare(em, share, folderId))) throw notFound('Folder');
  const sort = props.sort ?? 'name';
  const after = decodeCursor(props.cursor, ['boolean', sortType(sort), 'uuid']);
  const [rows, path] = await Promise.all([
    folderPage(em, { tenantId: share.tenantId, starOwner: ROOT_ID }, folderId, {
      sort,
      desc: props.order === 'desc',
      after,
      limit: props.limit,
    }),
    folderPath(em, share.tenantId, folderId),
  ]);
  const base = shareUrl(services, token);
  const address = signedToken(services, 'share', shareProof(share));
  const present = (r: (typeof rows)[number]): SharedItem => ({
    id: r.id,
    kind: r.kind,
    name: r.name,
    size: r.size,
    contentType: r.contentType,
    updatedAt: r.updatedAt,
    downloadUrl: r.kind === 'file' ? `${base}/items/${r.id}/download?t=${address}` : null,
  });
  return {
    folder: { id: folder.id, name: folder.name },
    path: path.slice(path.findIndex((p) => p.id === share.nodeId)),
    page: pageOf(rows, props.limit, present, (r) => [String(r.rank), r.sortKey, r.id]),
  };
}

/** The bytes of a file inside a `view` folder link, checked like a listing (404 outside the subtree or not live). */
export async function downloadSharedItem(
  services: Services,
  token: string,
  t: string | undefined,
  fileId: string,
): Promise<SharedDownload> {
  const share = await folderLink(services, token, t);
  const em = services.orm.em.fork();
  const file = await liveFileOf(em, share.tenantId, fileId);
  if (!file?.objectKey || !(await insideShare(em, share, fileId))) throw notFound('File');
  return sharedBytes(services, file as typeof file & { objectKey: string });
}
