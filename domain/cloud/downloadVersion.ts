import type { Readable } from 'node:stream';
import { AppError, notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { inlineSafe } from './downloads';
import { mediaType } from './names';
import { liveFile } from './store/nodes';
import { versionOf } from './store/versions';
import { parseRange } from './webdav/paths';

export interface VersionDownload {
  /** The file's name (the attachment's). */
  name: string;
  size: number;
  /** The stored type when a browser may render it, else application/octet-stream. */
  contentType: string;
  /** The bytes sent: one range of a Range header (206), else all (200). */
  range: { start: number; end: number } | null;
  body: Readable | null;
}

/**
 * The bytes of a version of a live file, streamed by this app: all of them, or the one range a `Range: bytes=`
 * header asks (416 `range_not_satisfiable` past the end; several ranges: all, as RFC 9110 allows). 404 when the
 * file or the version is not the organisation's, trashed or deleted.
 */
export async function downloadVersion(
  ctx: TenantContext,
  fileId: string,
  versionId: string,
  rangeHeader: string | undefined,
  withBody = true,
): Promise<VersionDownload> {
  const file = await liveFile(ctx.em, fileId);
  const version = file ? await versionOf(ctx.em, ctx.tenantId, fileId, versionId) : null;
  if (!file || !version) throw notFound('Version');
  const range = parseRange(rangeHeader, version.size);
  if (range === 'unsatisfiable')
    throw new AppError(416, 'range_not_satisfiable', `The version has ${version.size} bytes`, undefined, {
      'Content-Range': `bytes */${version.size}`,
    });
  const { storage } = ctx.services;
  const body =
    !withBody || version.size === 0
      ? null
      : range
        ? await storage.getRange(version.objectKey, range.start, range.end)
        : await storage.get(version.objectKey);
  return {
    name: file.name,
    size: version.size,
    contentType: inlineSafe(version.contentType) ? mediaType(version.contentType ?? '') : 'application/octet-stream',
    range,
    body,
  };
}
