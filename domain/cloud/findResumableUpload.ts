import type { CloudUpload } from '../../entities/cloud/upload';
import { AppError, notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { pendingUpload } from './store/uploads';

/** A pending resumable upload of the caller's organisation, as its routes need it. */
export type ResumableUpload = CloudUpload & { partSize: number; multipartId: string };

/**
 * The pending resumable upload `id` of the caller's organisation: 404 when there is none (another organisation's,
 * completed, aborted, a single-PUT upload, or not started in the store); 410 `upload_expired` past its expiry unless
 * `expiredToo` (the sweep aborts it).
 */
export async function findResumableUpload(
  ctx: TenantContext,
  id: string,
  expiredToo = false,
): Promise<ResumableUpload> {
  const upload = await pendingUpload(ctx.em, id);
  if (!upload || upload.partSize === null || !upload.multipartId) throw notFound('Upload');
  if (!expiredToo && upload.expiresAt.getTime() < Date.now())
    throw new AppError(410, 'upload_expired', 'This upload expired; start a new one');
  return upload as ResumableUpload;
}
