import type { Readable } from 'node:stream';
import type { CloudNode } from '../../entities/cloud/node';
import { forbidden, notFound } from '../../lib/errors';
import { linkAllows } from './shareRules';
import type { Services } from '../services';
import { inlineSafe } from './downloads';
import { liveShare, sharedFile, shareProof } from './linkShare';
import { mediaType } from './names';
import { checkToken } from './tokens';

export interface SharedDownload {
  file: CloudNode;
  size: number;
  /** What the answer declares: the stored type when a browser may render it (INLINE_SAFE), else octet-stream. */
  contentType: string;
  body: Readable;
}

/**
 * The bytes of a share's download address, checked at every use like the link itself (revoked, expired,
 * organisation suspended, file trashed or purged: 404 or 410 at once), then t (403 `download_token_invalid` /
 * `download_token_expired`). Streamed by this app rather than redirected to the store: a storage address would
 * show the organisation's id to whoever holds the link.
 */
export async function downloadShare(services: Services, token: string, t: string | undefined): Promise<SharedDownload> {
  const share = await liveShare(services, token);
  checkToken(services, 'share', shareProof(share), t);
  if (!linkAllows(share, 'download'))
    throw forbidden('share_permission_denied', 'This link is to a folder: list it (GET .../items)');
  return sharedBytes(services, await sharedFile(services, share));
}

/** A live file's bytes as a link serves them: streamed, the type declared only when a browser may render it. */
export async function sharedBytes(
  services: Services,
  file: CloudNode & { objectKey: string },
): Promise<SharedDownload> {
  const stored = await services.storage.stat(file.objectKey);
  if (!stored) throw notFound('Share');
  return {
    file,
    size: stored.size,
    contentType: inlineSafe(file.contentType) ? mediaType(file.contentType) : 'application/octet-stream',
    body: await services.storage.get(file.objectKey),
  };
}
