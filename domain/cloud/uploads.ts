import { CheckConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { CloudNode, DRIVE_PURPOSE } from '../../entities/cloud/node';
import type { CloudUpload } from '../../entities/cloud/upload';
import { AppError, conflict, notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { notify } from '../notifications/notify';
import { discardUpload } from './discardUpload';
import { freeName } from './freeName';
import { categoryOf } from './names';
import { fileKeyOf } from './objectKeys';
import { noFreeName } from './refusals';
import { reserveUpload, type StartUploadProps } from './reserveUpload';
import { fileById } from './store/nodes';
import { claimUploadAsFile, isPending, pendingUpload } from './store/uploads';
import { objectMismatches } from './uploadRules';
import { fileOfVersion, replaceContent } from './store/versions';
import { requestPreview } from './requestPreview';
import { refuseDavLocked } from './refuseDavLocked';

/** The two steps of an upload this API takes (the bytes go straight to the object store between them). */

export interface StartedUpload {
  /** Pass it to completeUpload / upload-confirm; it becomes the file's id. */
  uploadId: string;
  /** Presigned address the client PUTs the bytes to (straight to the object store). */
  url: string;
  method: 'PUT';
  /** Headers the PUT must carry (Content-Type, as declared). */
  headers: Record<string, string>;
  /** When the address stops accepting the PUT. */
  expiresAt: Date;
  /** Until when the upload may be confirmed; afterwards its reservation is released and the object deleted. */
  confirmBy: Date;
}

/**
 * Step 1 of the three-step upload (exported for other modules: assets, images). Reserves the quota and
 * returns a presigned PUT address for a server-chosen key; the bytes then go straight to the object store.
 */
export async function startUpload(ctx: TenantContext, props: StartUploadProps): Promise<StartedUpload> {
  const upload = await reserveUpload(ctx, props);
  const ttl = ctx.services.config.CLOUD_UPLOAD_TTL_SECONDS;
  const url = await ctx.services.storage.presignUpload(upload.objectKey, {
    expiresIn: ttl,
    contentType: upload.contentType,
    size: upload.size,
  });
  return {
    uploadId: upload.id,
    url,
    method: 'PUT',
    headers: { 'Content-Type': upload.contentType },
    expiresAt: new Date(Date.now() + ttl * 1000),
    confirmBy: upload.expiresAt,
  };
}

export interface CompletedUpload {
  node: CloudNode;
  /** False when the upload had already been confirmed (a repeated confirmation changes nothing) or replaced a file's content. */
  created: boolean;
}

/**
 * Step 3 (exported for other modules): stats the object, checks its size and media type against the
 * reservation, records the file and turns the reservation into stored bytes, in one transaction.
 * 409 `upload_incomplete`: no object yet (the reservation stays; PUT and confirm again). 409
 * `upload_mismatch`: the object differs from what was declared; it is deleted and the reservation released.
 * 410 `upload_expired`: too late; the sweep releases it. Confirming twice answers the file again. Where the
 * address could still change the object (S3), the object checked is first copied to a key of its own (409
 * `upload_changed` when a new PUT replaced it meanwhile: confirm again). `resumable`: the upload is a resumable one
 * whose object was just assembled from its parts (else 409 `upload_resumable`; a single PUT's upload is then 404).
 */
export async function completeUpload(
  ctx: TenantContext,
  uploadId: string,
  resumable = false,
): Promise<CompletedUpload> {
  const { storage } = ctx.services;
  const upload = await pendingUpload(ctx.em, uploadId);
  if (!upload) return { node: await confirmedNode(ctx, uploadId), created: false };
  // A resumable upload's object is assembled from its parts first (completeResumableUpload).
  if (upload.partSize !== null && !resumable)
    throw conflict(
      'upload_resumable',
      'This is a resumable upload: complete it with POST /api/cloud/uploads/{id}/complete',
    );
  if (upload.partSize === null && resumable) throw notFound('Upload');
  if (upload.expiresAt.getTime() < Date.now())
    throw new AppError(410, 'upload_expired', 'This upload expired; start a new one');
  const stored = await storage.stat(upload.objectKey);
  if (!stored)
    throw conflict('upload_incomplete', 'No bytes were uploaded to this address yet: PUT the file, then confirm');
  const problems = objectMismatches(stored, upload);
  if (problems.length) {
    await discardUpload(ctx, upload);
    throw conflict(
      'upload_mismatch',
      `The uploaded object does not match the upload: ${problems.join('; ')}. It was deleted and the reservation released; start again`,
    );
  }
  const objectKey = fileKeyOf(storage.uploadsAreFinal, ctx.tenantId, upload);
  if (objectKey !== upload.objectKey && !(await storage.copy(upload.objectKey, objectKey, stored.etag ?? ''))) {
    if (!(await isPending(ctx.em, ctx.tenantId, upload.id)))
      return { node: await confirmedNode(ctx, uploadId), created: false };
    throw conflict('upload_changed', 'The object was replaced while it was confirmed; confirm again');
  }
  // A WebDAV client that locked the file since step 1 keeps it: 423, the reservation stays for a confirmation later.
  if (upload.replacesId) await refuseDavLocked(ctx, [{ nodeId: upload.replacesId }]);
  const done = upload.replacesId
    ? await recordOverwrite(ctx, upload, objectKey)
    : await recordFile(ctx, upload, objectKey);
  // The copy is the file: the upload key's object goes (a failure leaves it to nobody; the file is safe).
  if (done.claimed && objectKey !== upload.objectKey) {
    await storage
      .remove(upload.objectKey)
      .catch((err: Error) =>
        ctx.services.logger.warn({ err: err.message, key: upload.objectKey }, 'cloud upload object not removed'),
      );
  }
  return { node: done.node, created: done.created };
}

/**
 * Records the confirmed upload as the new content of the file it replaces, its current content kept as a version
 * (the same statement as a WebDAV overwrite). 404 when the file was trashed meanwhile: the
 * upload is discarded and its reservation released.
 */
async function recordOverwrite(
  ctx: TenantContext,
  upload: CloudUpload,
  objectKey: string,
): Promise<CompletedUpload & { claimed: boolean }> {
  const fileId = upload.replacesId!;
  const replaced = await ctx.em.transactional((em) =>
    replaceContent(em, ctx.tenantId, upload.id, fileId, {
      size: upload.size,
      contentType: upload.contentType,
      category: categoryOf(upload.contentType, upload.name),
      objectKey,
      authorId: ctx.userId,
      contentHash: null,
    }),
  );
  if (!replaced) {
    if (!(await isPending(ctx.em, ctx.tenantId, upload.id)))
      return { node: await replacedFile(ctx, fileId), created: false, claimed: false };
    await discardUpload(ctx, upload);
    throw notFound('File');
  }
  const node = await replacedFile(ctx, fileId);
  requestPreview(ctx.services, node);
  void notify(ctx.services, 'cloud', [
    {
      event: 'file.uploaded',
      tenantId: ctx.tenantId,
      subject: { fileId, folderId: node.parentId ?? null, userId: ctx.userId },
      data: { name: node.name, size: node.size, contentType: node.contentType, parentId: node.parentId ?? null },
    },
  ]);
  return { node, created: false, claimed: true };
}

async function replacedFile(ctx: TenantContext, fileId: string): Promise<CloudNode> {
  const node = await ctx.em.findOne(CloudNode, { id: fileId, kind: 'file' }, { refresh: true });
  if (!node) throw notFound('File');
  return node;
}

/** Records the confirmed file at `objectKey` and settles the quota, claiming the upload (one statement, retried). */
async function recordFile(
  ctx: TenantContext,
  upload: CloudUpload,
  objectKey: string,
): Promise<CompletedUpload & { claimed: boolean }> {
  const category = categoryOf(upload.contentType, upload.name);
  const drive = upload.purpose === DRIVE_PURPOSE;
  let parentId = drive ? (upload.parentId ?? null) : null;
  let name = upload.name;
  for (let attempt = 1; ; attempt++) {
    try {
      // Claims the upload (of two concurrent confirmations one deletes its row), records the file, settles the
      // quota, in one statement. Nothing claimed: already confirmed.
      const node = await claimUploadAsFile(
        ctx.em,
        { id: upload.id, tenantId: ctx.tenantId, size: upload.size },
        { parentId, name, category, objectKey },
      );
      if (!node) return { node: await confirmedNode(ctx, upload.id), created: false, claimed: false };
      if (drive) {
        requestPreview(ctx.services, node);
        void notify(ctx.services, 'cloud', [
          {
            event: 'file.uploaded',
            tenantId: ctx.tenantId,
            subject: { fileId: node.id, folderId: node.parentId ?? null, userId: ctx.userId },
            data: { name: node.name, size: node.size, contentType: node.contentType, parentId: node.parentId ?? null },
          },
        ]);
      }
      return { node, created: true, claimed: true };
    } catch (err) {
      // Still pending (nothing was claimed): its reservation stays for a confirmation again, or the sweep.
      if (attempt >= 5) throw err instanceof UniqueConstraintViolationException ? noFreeName(upload.name) : err;
      // The folder was trashed or deleted since the upload started: the file lands at the root, not lost.
      if (err instanceof CheckConstraintViolationException && parentId) parentId = null;
      // The name was taken since: the first free "name (n)".
      else if (err instanceof UniqueConstraintViolationException && drive)
        name = await freeName(ctx.em, ctx.tenantId, parentId, upload.name, true);
      else throw err;
    }
  }
}

/** The file an upload became, or the file whose content it replaced (its version has the upload's id, while kept). */
async function confirmedNode(ctx: TenantContext, id: string): Promise<CloudNode> {
  const replaced = await fileOfVersion(ctx.em, ctx.tenantId, id);
  const node = await fileById(ctx.em, replaced ?? id);
  if (!node) throw notFound('Upload');
  return node;
}
