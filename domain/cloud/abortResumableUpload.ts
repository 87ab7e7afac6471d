import type { TenantContext } from '../context';
import { discardUpload } from './discardUpload';
import { findResumableUpload } from './findResumableUpload';

/**
 * Aborts a pending resumable upload (expired too): its multipart upload aborted in the store (the parts deleted), the
 * row deleted, its reservation released. 404 when there is none (completed: the file is deleted through the drive).
 */
export async function abortResumableUpload(ctx: TenantContext, id: string): Promise<void> {
  await discardUpload(ctx, await findResumableUpload(ctx, id, true));
}
