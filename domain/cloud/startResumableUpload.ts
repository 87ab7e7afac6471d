import { invalidField } from '../../lib/errors';
import type { TenantContext } from '../context';
import { discardUpload } from './discardUpload';
import { partCountOf, partSizeFor } from './multipartRules';
import { fileKeyOf, objectKeyFor } from './objectKeys';
import { reserveUpload, type StartUploadProps } from './reserveUpload';
import { setMultipartId } from './store/uploads';

export interface StartedResumableUpload {
  /** Names the upload in its other routes; it becomes the file's id. */
  uploadId: string;
  /** Bytes of every part but the last (which holds what remains). */
  partSize: number;
  partCount: number;
  /** Complete it before then; afterwards the sweep aborts it (parts deleted) and releases its reservation. */
  expiresAt: Date;
}

/**
 * Starts a resumable (multipart) upload of a drive file: reserves the declared size in the quota (the same
 * reservation as a single PUT: 409 `quota_exceeded`; at most CLOUD_MULTIPART_MAX_BYTES, else 413 `file_too_large`),
 * chooses the part size (partSizeFor) and starts the multipart upload in the store. Its object is assembled at the
 * file's own key, which no address reaches (the parts have theirs).
 */
export async function startResumableUpload(
  ctx: TenantContext,
  props: Pick<StartUploadProps, 'name' | 'size' | 'contentType' | 'folderId'>,
): Promise<StartedResumableUpload> {
  const { config, storage } = ctx.services;
  if (props.size < 1) throw invalidField('size', 'must be at least 1 byte');
  const partSize = partSizeFor(props.size, config.CLOUD_MULTIPART_PART_SIZE_MIN);
  const upload = await reserveUpload(ctx, props, {
    maxBytes: config.CLOUD_MULTIPART_MAX_BYTES,
    ttlSeconds: config.CLOUD_MULTIPART_TTL_SECONDS,
    objectKey: (tenantId, id) =>
      fileKeyOf(storage.uploadsAreFinal, tenantId, { id, objectKey: objectKeyFor(tenantId, id) }),
    partSize,
  });
  let multipartId: string | null = null;
  try {
    multipartId = await storage.startMultipart(upload.objectKey, upload.contentType);
    await setMultipartId(ctx.em, ctx.tenantId, upload.id, multipartId);
  } catch (err) {
    await discardUpload(ctx, { ...upload, multipartId }).catch(() => undefined);
    throw err;
  }
  return { uploadId: upload.id, partSize, partCount: partCountOf(props.size, partSize), expiresAt: upload.expiresAt };
}
