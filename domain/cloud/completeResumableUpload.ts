import type { PartRef } from '../../lib/storage';
import type { TenantContext } from '../context';
import { findResumableUpload } from './findResumableUpload';
import { planCompletion } from './multipartRules';
import { pendingUpload } from './store/uploads';
import { completeUpload, type CompletedUpload } from './uploads';

/**
 * Completes a resumable upload: checks the parts (planCompletion: every part, each of its exact length, with the
 * ETags given or as the store lists them; 409 `parts_missing`, `part_mismatch`, `part_size_mismatch`), assembles the
 * object in the store, then records the file and settles the quota exactly as a confirmation does (completeUpload).
 * A repeated completion answers the file (created false); one that assembled the object but did not record the file
 * (interrupted) is finished by the next, which finds the object assembled.
 */
export async function completeResumableUpload(
  ctx: TenantContext,
  id: string,
  given?: PartRef[],
): Promise<CompletedUpload> {
  const { storage } = ctx.services;
  if (await pendingUpload(ctx.em, id)) {
    const upload = await findResumableUpload(ctx, id);
    const stored = await storage.listParts(upload.objectKey, upload.multipartId);
    // No multipart upload left in the store: an earlier completion assembled it (completeUpload checks the object).
    if (stored) {
      const parts = planCompletion({ size: upload.size, partSize: upload.partSize }, stored, given);
      try {
        await storage.completeMultipart(upload.objectKey, upload.multipartId, parts, upload.contentType);
      } catch (err) {
        // A concurrent completion assembled it meanwhile (and removed the parts read here): its object counts.
        if ((await storage.stat(upload.objectKey))?.size !== upload.size) throw err;
      }
    }
  }
  return completeUpload(ctx, id, true);
}
