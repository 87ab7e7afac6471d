import type { StoredPart } from '../../lib/storage';
import type { TenantContext } from '../context';
import { findResumableUpload } from './findResumableUpload';
import { missingParts, partCountOf } from './multipartRules';

export interface ResumableUploadState {
  uploadId: string;
  name: string;
  size: number;
  contentType: string;
  folderId: string | null;
  partSize: number;
  partCount: number;
  expiresAt: Date;
  /** The parts the store holds, by number, with their ETags and sizes (what completes the upload). */
  parts: StoredPart[];
  /** Numbers of the parts not uploaded yet. */
  missingParts: number[];
  /** Bytes of the parts held. */
  uploadedBytes: number;
}

/** What a resumable upload holds so far, as the store lists it: what a client resumes from after a disconnect. */
export async function describeResumableUpload(ctx: TenantContext, id: string): Promise<ResumableUploadState> {
  const upload = await findResumableUpload(ctx, id, true);
  const count = partCountOf(upload.size, upload.partSize);
  const stored = await ctx.services.storage.listParts(upload.objectKey, upload.multipartId);
  const parts = (stored ?? []).filter((p) => p.partNumber <= count);
  return {
    uploadId: upload.id,
    name: upload.name,
    size: upload.size,
    contentType: upload.contentType,
    folderId: upload.parentId ?? null,
    partSize: upload.partSize,
    partCount: count,
    expiresAt: upload.expiresAt,
    parts,
    missingParts: missingParts(parts, count),
    uploadedBytes: parts.reduce((sum, p) => sum + p.size, 0),
  };
}
