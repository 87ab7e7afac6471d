import type { CloudNode } from '../../entities/cloud/node';
import { notFound } from '../../lib/errors';
import type { Services } from '../services';
import type { TenantContext } from '../context';
import { isEntitled } from '../core/org/activeModules';
import { mediaType } from './names';
import { liveFile } from './store/nodes';
import { signedToken } from './tokens';

export interface DownloadAddress {
  url: string;
  expiresAt: Date;
}

/** Media types a browser may render from the storage address; anything else downloads (no HTML or SVG inline). */
const INLINE_SAFE =
  /^(image\/(png|jpeg|gif|webp|avif|bmp)|video\/(mp4|webm|ogg)|audio\/(mpeg|ogg|wav|webm|mp4)|application\/pdf|text\/plain)$/;

/** Whether a browser may render a file of this media type from its storage address (INLINE_SAFE). */
export const inlineSafe = (contentType: string | null | undefined) => INLINE_SAFE.test(mediaType(contentType));

/** What presignFile needs of a stored file (a cloud node). */
export interface PresignedFile {
  objectKey: string | null | undefined;
  name: string;
  contentType: string | null | undefined;
}

/**
 * Every presigned GET of a stored file goes through here, so the INLINE_SAFE rule holds for all of them. `inline`:
 * the caller wants the bytes rendered (no Content-Disposition); honoured only for a type on the list. Any other
 * type is an attachment named like the file and, where the store can (S3: response-content-type), answered as
 * application/octet-stream rather than the type the uploader declared (text/html, image/svg+xml ...).
 */
export function presignFile(
  services: Pick<Services, 'storage'>,
  file: PresignedFile,
  options: { expiresIn: number; inline: boolean },
): Promise<string> {
  const safe = inlineSafe(file.contentType);
  return services.storage.presignDownload(file.objectKey!, {
    expiresIn: options.expiresIn,
    filename: options.inline && safe ? undefined : file.name,
    responseContentType: safe ? undefined : 'application/octet-stream',
  });
}

/**
 * Whether the anonymous surfaces of cloud (share links, inline addresses) may serve an organisation's files: its
 * cached entitlements grant cloud and do not say suspended (the check of the public knowledge base and storefront).
 */
export async function servesCloud(services: Pick<Services, 'entitlements'>, tenantId: string): Promise<boolean> {
  return isEntitled(await services.entitlements.get(tenantId), 'cloud');
}

/** A live file of the drive of the caller's organisation with its object, or 404. */
export async function liveStoredFile(ctx: TenantContext, id: string): Promise<CloudNode> {
  const node = await liveFile(ctx.em, id);
  if (!node?.objectKey) throw notFound('File');
  return node;
}

/**
 * Seconds a storage address handed out by a redirect of this app (download, inline) stays valid: just enough
 * for the client to follow it. The addresses given to clients are this app's, checked at every use, so a file
 * trashed, purged or of a suspended organisation stops being served at once.
 */
export const REDIRECT_TTL_SECONDS = 60;

/** The address of this app that serves a file for one purpose, signed for CLOUD_LINK_TTL_SECONDS. */
export const fileAddress = (services: Services, purpose: 'inline' | 'download', fileId: string) =>
  `${services.config.PUBLIC_URL}/api/cloud/files/${fileId}/${purpose}?t=${signedToken(services, purpose, fileId)}`;
