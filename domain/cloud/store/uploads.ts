import { CloudNode, type FileCategory } from '../../../entities/cloud/node';
import { CloudUpload } from '../../../entities/cloud/upload';
import type { Em } from '../../../lib/db';
import { RESERVE_SQL, reserveParams, SETTLE_SQL, settleParams } from './usage';

/** Statements of uploads in progress (cloud_uploads) and of their confirmation into files. */

export interface NewUpload {
  id: string;
  tenantId: string;
  userId: string | null;
  purpose: string;
  parentId: string | null;
  name: string;
  size: number;
  contentType: string;
  objectKey: string;
  expiresAt: Date;
  /** The file whose content it replaces, or null (a new file). */
  replacesId: string | null;
  /** A resumable upload's part size; null for a single PUT. */
  partSize: number | null;
}

/**
 * Reserves the upload's bytes in the quota and records the upload, in one statement (RESERVE_SQL): false,
 * and nothing recorded, when they do not fit in `quota`.
 */
export async function reserveAndRecordUpload(em: Em, upload: NewUpload, quota: number): Promise<boolean> {
  const rows = await em.execute(
    `with reserved as (${RESERVE_SQL})
     insert into cloud_uploads (id, tenant_id, created_at, user_id, purpose, parent_id, name, size, content_type, object_key, expires_at, replaces_id, part_size)
     select ?, ?, now(), ?, ?, ?, ?, ?, ?, ?, ?, ?, ? from reserved returning id`,
    [
      ...reserveParams(upload.tenantId, upload.size, quota),
      upload.id,
      upload.tenantId,
      upload.userId,
      upload.purpose,
      upload.parentId,
      upload.name,
      upload.size,
      upload.contentType,
      upload.objectKey,
      upload.expiresAt,
      upload.replacesId,
      upload.partSize,
    ],
  );
  return rows.length > 0;
}

/** Records the store's id of a resumable upload's multipart upload, once started. */
export async function setMultipartId(em: Em, tenantId: string, id: string, multipartId: string): Promise<void> {
  await em.execute(`update cloud_uploads set multipart_id = ? where id = ? and tenant_id = ?`, [
    multipartId,
    id,
    tenantId,
  ]);
}

/** A resumable upload still pending at this key with this multipart id (not expired): its size and part size, or null. */
export async function pendingPartUpload(
  em: Em,
  upload: { tenantId: string; id: string; key: string; multipartId: string },
): Promise<{ size: number; partSize: number } | null> {
  const rows = await em.execute<{ size: string; part_size: string }[]>(
    `select size, part_size from cloud_uploads where id = ? and tenant_id = ? and object_key = ? and multipart_id = ? and part_size is not null and expires_at > now()`,
    [upload.id, upload.tenantId, upload.key, upload.multipartId],
  );
  return rows.length ? { size: Number(rows[0].size), partSize: Number(rows[0].part_size) } : null;
}

/** A pending upload of the em's organisation (tenant filter), or null. */
export const pendingUpload = (em: Em, id: string) => em.findOne(CloudUpload, { id });

/** Whether the upload is still pending (neither confirmed nor discarded). */
export async function isPending(em: Em, tenantId: string, id: string): Promise<boolean> {
  return (await em.execute(`select 1 from cloud_uploads where id = ? and tenant_id = ?`, [id, tenantId])).length > 0;
}

/** Locks a pending upload (FOR UPDATE); false when it is gone (confirmed or discarded). */
export async function lockUpload(em: Em, tenantId: string, id: string): Promise<boolean> {
  return (
    (await em.execute(`select 1 from cloud_uploads where id = ? and tenant_id = ? for update`, [id, tenantId])).length >
    0
  );
}

export async function deleteUpload(em: Em, tenantId: string, id: string): Promise<void> {
  await em.execute(`delete from cloud_uploads where id = ? and tenant_id = ?`, [id, tenantId]);
}

/**
 * One statement: claims the upload (of two concurrent confirmations one deletes the row), records the file at
 * `objectKey` under `name` in `parentId`, and turns the reservation into stored bytes of `category`. Null when
 * nothing was claimed (already confirmed). Fails on the unique name index or the parent trigger, changing nothing.
 */
export async function claimUploadAsFile(
  em: Em,
  upload: { id: string; tenantId: string; size: number },
  file: {
    parentId: string | null;
    name: string;
    category: FileCategory;
    objectKey: string;
    contentHash?: string | null;
  },
): Promise<CloudNode | null> {
  const rows = await em.execute<Record<string, unknown>[]>(
    `with claimed as (delete from cloud_uploads where id = ? and tenant_id = ? returning id, tenant_id, purpose, size, content_type, user_id),
         node as (
           insert into cloud_nodes (id, tenant_id, created_at, updated_at, kind, purpose, parent_id, name, size, content_type, category, object_key, created_by, content_hash)
           select id, tenant_id, now(), now(), 'file', purpose, ?, ?, size, content_type, ?, ?, user_id, ? from claimed returning *
         ),
         settled as (${SETTLE_SQL} and exists (select 1 from node) returning 1)
         select node.*, (select count(*) from settled) as settled from node`,
    [
      upload.id,
      upload.tenantId,
      file.parentId,
      file.name,
      file.category,
      file.objectKey,
      file.contentHash ?? null,
      ...settleParams(upload.tenantId, upload.size, file.category),
    ],
  );
  if (!rows.length) return null;
  const { settled: _settled, ...row } = rows[0];
  return em.map(CloudNode, row);
}

export interface ExpiredUpload {
  id: string;
  tenant_id: string;
  size: string;
  object_key: string;
  multipart_id: string | null;
}

/** Uploads of every organisation past their confirmation deadline, oldest first. */
export function expiredUploads(em: Em, limit: number): Promise<ExpiredUpload[]> {
  return em.execute<ExpiredUpload[]>(
    `select id, tenant_id, size, object_key, multipart_id from cloud_uploads where expires_at < now() order by expires_at limit ?`,
    [limit],
  );
}

/**
 * The declared size of an upload still pending at this key, else null; `forShare` waits for a discard holding
 * the row (FOR SHARE).
 */
export async function pendingSize(
  em: Em,
  upload: { tenantId: string; id: string; key: string },
  forShare = false,
): Promise<number | null> {
  const rows = await em.execute<{ size: string }[]>(
    `select size from cloud_uploads where id = ? and tenant_id = ? and object_key = ? and expires_at > now() ${forShare ? 'for share' : ''}`,
    [upload.id, upload.tenantId, upload.key],
  );
  return rows.length ? Number(rows[0].size) : null;
}

/** A member's pending resumable uploads (started in the store, not expired), newest first, at most `limit`. */
export async function pendingResumableUploads(em: Em, tenantId: string, userId: string, limit: number) {
  return em.find(
    CloudUpload,
    { tenantId, userId, multipartId: { $ne: null }, partSize: { $ne: null }, expiresAt: { $gt: new Date() } },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit },
  );
}
