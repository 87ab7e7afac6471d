import type { TenantContext } from '../context';
import { fileKeyOf } from './objectKeys';
import type { ReservedUpload } from './reserveUpload';
import { deleteUpload, lockUpload } from './store/uploads';
import { releaseReservation } from './store/usage';

/**
 * Drops an upload: its object (if any) deleted first (a resumable upload's multipart upload aborted, its parts
 * deleted), then its reservation given back. A failure to delete
 * the object leaves the upload, so the sweep tries again later: no object is ever left without a row (nor the
 * copy an unfinished S3 confirmation made). The row stays locked meanwhile, so a local PUT finishing then finds
 * no pending upload and takes its object back (receive.ts).
 */
export async function discardUpload(
  ctx: Pick<TenantContext, 'services' | 'tenantId'>,
  upload: Pick<ReservedUpload, 'id' | 'size' | 'objectKey'> & { multipartId?: string | null },
): Promise<void> {
  await ctx.services.orm.em.fork().transactional(async (em) => {
    if (!(await lockUpload(em, ctx.tenantId, upload.id))) return; // confirmed or discarded meanwhile: its objects are no longer this upload's to delete
    if (upload.multipartId) await ctx.services.storage.abortMultipart(upload.objectKey, upload.multipartId);
    for (const key of new Set([
      upload.objectKey,
      fileKeyOf(ctx.services.storage.uploadsAreFinal, ctx.tenantId, upload),
    ]))
      await ctx.services.storage.remove(key);
    await deleteUpload(em, ctx.tenantId, upload.id);
    await releaseReservation(em, ctx.tenantId, upload.size);
  });
}
