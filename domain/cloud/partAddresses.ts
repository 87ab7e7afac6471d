import type { TenantContext } from '../context';
import { findResumableUpload } from './findResumableUpload';
import { checkPartNumber, partLength } from './multipartRules';

export interface PartAddress {
  partNumber: number;
  /** Presigned PUT address of the part, straight to the object store. */
  url: string;
  method: 'PUT';
  /** Exact bytes the part must carry. */
  size: number;
  /** The address accepts the PUT until then. */
  expiresAt: Date;
}

/**
 * Upload addresses of parts of a resumable upload (400 `part_number_invalid` for a number outside 1..partCount),
 * valid CLOUD_UPLOAD_TTL_SECONDS and never past the upload's expiry. A part may be PUT again (the last PUT counts),
 * in any order, in parallel; ask for new addresses when they expired.
 */
export async function partAddresses(ctx: TenantContext, id: string, partNumbers: number[]): Promise<PartAddress[]> {
  const { config, storage } = ctx.services;
  const upload = await findResumableUpload(ctx, id);
  const numbers = [...new Set(partNumbers)].sort((a, b) => a - b);
  for (const n of numbers) checkPartNumber(n, upload.size, upload.partSize);
  const left = Math.floor((upload.expiresAt.getTime() - Date.now()) / 1000);
  const expiresIn = Math.max(1, Math.min(config.CLOUD_UPLOAD_TTL_SECONDS, left));
  const expiresAt = new Date(Date.now() + expiresIn * 1000);
  return Promise.all(
    numbers.map(async (partNumber) => {
      const size = partLength(partNumber, upload.size, upload.partSize);
      const url = await storage.presignPart(upload.objectKey, upload.multipartId, partNumber, { expiresIn, size });
      return { partNumber, url, method: 'PUT' as const, size, expiresAt };
    }),
  );
}
