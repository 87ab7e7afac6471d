import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { badRequest, conflict, tooLarge } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { notify } from '../../notifications/notify';
import { discardUpload } from '../discardUpload';
import { categoryOf, mediaType } from '../names';
import { reserveUpload, type ReservedUpload } from '../reserveUpload';
import { claimUploadAsFile } from '../store/uploads';
import type { DavNode } from '../store/dav';
import { replaceContent } from '../store/versions';
import { folderIdOf } from './resolve';
import { davName } from './names';
import { requestPreview } from '../requestPreview';

export interface DavWrite {
  /** The folder the file is in. */
  parent: DavNode;
  name: string;
  /** The file there now (an overwrite), or null (a new file). */
  existing: DavNode | null;
  /** Bytes the body carries (Content-Length): reserved in the quota before a byte is stored. */
  size: number;
  contentType: string | undefined;
}

/** A stream passing at most `max` bytes (413 `payload_too_large` past it), hashing them (SHA-256) on the way. */
const bounded = (max: number) => {
  let seen = 0;
  const hash = createHash('sha256');
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > max) return done(tooLarge('payload_too_large', `The body has more than the ${max} bytes it declared`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
};

/**
 * A WebDAV PUT: the declared bytes reserved in the quota (409 `quota_exceeded`, 413 `file_too_large`, as every
 * upload), the body streamed straight to object storage under a key of the server's, checked, then recorded in
 * one transaction: a new file, or the existing file pointed at the new object, its previous content kept as a
 * version (whose bytes stay counted in the quota). A body cut short or refused gives the reservation back and deletes what was stored.
 */
export async function writeDavFile(ctx: TenantContext, write: DavWrite, body: Readable): Promise<DavNode | null> {
  const name = write.existing ? write.existing.name : davName(write.name);
  const contentType = mediaType(write.contentType) || guessType(name);
  const upload = await reserveUpload(ctx, {
    name,
    size: write.size,
    contentType,
    folderId: folderIdOf(write.parent),
  });
  try {
    const contentHash = await storeBody(ctx, upload, body);
    return await record(ctx, write, upload, name, contentHash);
  } catch (err) {
    await discardUpload(ctx, upload).catch(() => undefined);
    throw err;
  }
}

/** Streams the body to the upload's object; its SHA-256 (hex). */
async function storeBody(ctx: TenantContext, upload: ReservedUpload, body: Readable): Promise<string> {
  const { storage } = ctx.services;
  const limited = bounded(upload.size);
  await Promise.all([
    storage.put(upload.objectKey, limited.stream, upload.contentType, upload.size),
    pipeline(body, limited.stream),
  ]);
  const stored = await storage.stat(upload.objectKey);
  if (!stored || stored.size !== upload.size)
    throw badRequest('body_incomplete', `The body ended after ${stored?.size ?? 0} of ${upload.size} bytes`);
  return limited.digest();
}

async function record(ctx: TenantContext, write: DavWrite, upload: ReservedUpload, name: string, contentHash: string) {
  const category = categoryOf(upload.contentType, name);
  if (!write.existing) {
    try {
      const node = await claimUploadAsFile(
        ctx.em,
        { id: upload.id, tenantId: ctx.tenantId, size: upload.size },
        { parentId: folderIdOf(write.parent), name, category, objectKey: upload.objectKey, contentHash },
      );
      if (node) {
        requestPreview(ctx.services, { tenantId: ctx.tenantId, id: node.id, objectKey: upload.objectKey, category });
        notifyUploaded(ctx, node.id, node.parentId ?? null, name, upload);
      }
      return null;
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException)
        throw conflict('name_taken', `"${name}" was created meanwhile; PUT again to overwrite it`);
      throw err;
    }
  }
  const existing = write.existing;
  // The previous content becomes a version: its object and bytes stay (counted in the quota).
  const replaced = await ctx.em.transactional((em) =>
    replaceContent(em, ctx.tenantId, upload.id, existing.id, {
      size: upload.size,
      contentType: upload.contentType,
      category,
      objectKey: upload.objectKey,
      authorId: ctx.userId,
      contentHash,
    }),
  );
  if (!replaced) throw conflict('file_gone', 'The file was deleted while it was written; PUT again');
  requestPreview(ctx.services, { tenantId: ctx.tenantId, id: existing.id, objectKey: upload.objectKey, category });
  notifyUploaded(ctx, existing.id, existing.parentId, name, upload);
  return null;
}

function notifyUploaded(
  ctx: TenantContext,
  fileId: string,
  folderId: string | null,
  name: string,
  upload: ReservedUpload,
): void {
  void notify(ctx.services, 'cloud', [
    {
      event: 'file.uploaded',
      tenantId: ctx.tenantId,
      subject: { fileId, folderId, userId: ctx.userId },
      data: { name, size: upload.size, contentType: upload.contentType, parentId: folderId },
    },
  ]);
}

const TYPES: Record<string, string> = {
  txt: 'text/plain',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  md: 'text/markdown',
  json: 'application/json',
  xml: 'application/xml',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  zip: 'application/zip',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
};

/** The media type of a name's extension, for clients that send none (application/octet-stream otherwise). */
export const guessType = (name: string) =>
  TYPES[/\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream';
