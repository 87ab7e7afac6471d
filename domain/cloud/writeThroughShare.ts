import type { Readable } from 'node:stream';
import { forbidden, invalidField, notFound } from '../../lib/errors';
import { tenantContext } from '../context';
import type { Services } from '../services';
import { freeName } from './freeName';
import { liveShare, sharedFile, shareProof } from './linkShare';
import { linkAllows } from './shareRules';
import { liveFolderOf } from './store/nodes';
import type { DavNode } from './store/dav';
import { checkToken } from './tokens';
import { davName } from './webdav/names';
import { writeDavFile } from './webdav/writeFile';
import { refuseDavLocked } from './refuseDavLocked';

export interface ShareWrite {
  /** Drop folders: the name of the file put (a name taken in the folder becomes "name (2)"). */
  name?: string;
  /** Bytes the body carries (Content-Length): reserved in the organisation's quota first. */
  size: number;
  contentType: string | undefined;
}

/** A folder as the writer of WebDAV PUTs takes it (the root has the id ''). */
const folderNode = (id: string | null, name = ''): DavNode => ({
  id: id ?? '',
  kind: 'folder',
  name,
  parentId: null,
  size: 0,
  contentType: null,
  objectKey: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

/**
 * A PUT through a link, checked at every use like the download (revoked, expired, organisation suspended: 404 or
 * 410), then t (the proof the password was given): an `upload` link drops a new file into its folder, an `edit`
 * link replaces its file's content (the previous one kept as a version); any other use is 403
 * `share_permission_denied`. The bytes go the WebDAV PUT's way (quota reserved first, streamed to object storage,
 * recorded in one transaction), in the organisation's name with no member as author. Answers whether a file was
 * created.
 */
export async function writeThroughShare(
  services: Services,
  token: string,
  t: string | undefined,
  use: 'drop' | 'replace',
  write: ShareWrite,
  body: Readable,
): Promise<{ created: boolean }> {
  const share = await liveShare(services, token);
  checkToken(services, 'share', shareProof(share), t);
  if (!linkAllows(share, use))
    throw forbidden(
      'share_permission_denied',
      use === 'drop' ? 'This link does not take uploads' : 'This link does not let you change the file',
    );
  const ctx = tenantContext(services, share.tenantId);
  if (use === 'replace') {
    const file = await sharedFile(services, share);
    await refuseDavLocked(ctx, [{ nodeId: file.id }]);
    const existing: DavNode = {
      ...folderNode(file.id, file.name),
      kind: 'file',
      size: file.size,
      objectKey: file.objectKey,
    };
    await writeDavFile(
      ctx,
      {
        parent: folderNode(file.parentId ?? null),
        name: file.name,
        existing,
        size: write.size,
        contentType: write.contentType,
      },
      body,
    );
    return { created: false };
  }
  const folder = await liveFolderOf(ctx.em, share.tenantId, share.nodeId);
  if (!folder) throw notFound('Share');
  if (!write.name) throw invalidField('name', 'is required: the name of the file put');
  const name = await freeName(ctx.em, share.tenantId, folder.id, davName(write.name), true);
  await refuseDavLocked(ctx, [{ nodeId: folder.id, child: name }]);
  await writeDavFile(
    ctx,
    {
      parent: folderNode(folder.id, folder.name),
      name,
      existing: null,
      size: write.size,
      contentType: write.contentType,
    },
    body,
  );
  return { created: true };
}
