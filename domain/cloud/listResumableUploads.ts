import type { TenantContext } from '../context';
import { pendingResumableUploads } from './store/uploads';

/** How many pending uploads the list answers at most: a client resumes its latest ones. */
export const PENDING_UPLOADS_LISTED = 100;

export interface PendingUpload {
  uploadId: string;
  name: string;
  size: number;
  contentType: string;
  folderId: string | null;
  partSize: number;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * The caller's own resumable uploads still pending (started, not completed, aborted nor expired), newest first: what
 * a sync client that lost its state (a crash, another device) finds again, then resumes with GET /uploads/{id}.
 * Another member's uploads are not listed: each resumes its own.
 */
export async function listResumableUploads(ctx: TenantContext): Promise<PendingUpload[]> {
  if (!ctx.userId) return [];
  const rows = await pendingResumableUploads(ctx.em, ctx.tenantId, ctx.userId, PENDING_UPLOADS_LISTED);
  return rows.map((u) => ({
    uploadId: u.id,
    name: u.name,
    size: u.size,
    contentType: u.contentType,
    folderId: u.parentId ?? null,
    partSize: u.partSize ?? 0,
    createdAt: u.createdAt,
    expiresAt: u.expiresAt,
  }));
}
