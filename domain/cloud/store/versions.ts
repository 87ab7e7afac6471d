import { newId } from '../../../entities/base';
import type { Em } from '../../../lib/db';
import { SETTLE_SQL, settleParams } from './usage';

/** Statements of file versions (cloud_file_versions): overwrites, listings, restores, deletions, the retention. */

/** A content that replaces a file's current one. */
export interface NewContent {
  size: number;
  contentType: string;
  category: string;
  objectKey: string;
  authorId: string | null;
  /** SHA-256 (hex) of the bytes, when they passed through the server. */
  contentHash: string | null;
}

/** The file's current content becomes a version (author: whoever overwrote it last, else the creator). */
const KEEP_CURRENT_SQL = `insert into cloud_file_versions (id, tenant_id, created_at, file_id, size, content_type, category, object_key, author_id, content_at, content_hash)
  select ?, n.tenant_id, now(), n.id, n.size, n.content_type, n.category, n.object_key, coalesce(n.content_author_id, n.created_by), n.updated_at, n.content_hash
  from cloud_nodes n where n.id = ? and n.tenant_id = ?`;

/** A live file of the drive, locked FOR UPDATE; false when it is gone (trashed or purged). */
export async function lockLiveFile(em: Em, tenantId: string, fileId: string): Promise<boolean> {
  const rows = await em.execute(
    `select id from cloud_nodes where id = ? and tenant_id = ? and kind = 'file' and purpose = 'file' and trashed_at is null for update`,
    [fileId, tenantId],
  );
  return rows.length > 0;
}

/**
 * An overwrite (WebDAV PUT on a file, an upload replacing it): claims the upload, keeps the file's current content
 * as a version (its object, size, type, author and time; its bytes stay counted), points the live file at the
 * upload's object and settles the reservation into stored bytes, all in the caller's transaction. False when the
 * file is gone (trashed meanwhile) or the upload was already claimed: nothing changed.
 */
export async function replaceContent(
  em: Em,
  tenantId: string,
  uploadId: string,
  nodeId: string,
  file: NewContent,
): Promise<boolean> {
  if (!(await lockLiveFile(em, tenantId, nodeId))) return false;
  const claimed = await em.execute(`delete from cloud_uploads where id = ? and tenant_id = ? returning id`, [
    uploadId,
    tenantId,
  ]);
  if (!claimed.length) return false;
  // The version takes the upload's id: a repeated confirmation finds the file through it (fileOfVersion).
  await em.execute(KEEP_CURRENT_SQL, [uploadId, nodeId, tenantId]);
  await em.execute(
    `update cloud_nodes set size = ?, content_type = ?, category = ?, object_key = ?, content_author_id = ?, content_hash = ?, updated_at = now() where id = ? and tenant_id = ?`,
    [file.size, file.contentType, file.category, file.objectKey, file.authorId, file.contentHash, nodeId, tenantId],
  );
  await em.execute(SETTLE_SQL, settleParams(tenantId, file.size, file.category));
  return true;
}

export interface VersionRow {
  id: string;
  size: string;
  category: string | null;
  object_key: string;
}

/** The versions of these files, locked FOR UPDATE in id order (a purge deletes them with their files). */
export function lockVersionsOf(em: Em, tenantId: string, fileIds: string[]): Promise<VersionRow[]> {
  if (!fileIds.length) return Promise.resolve([]);
  return em.execute<VersionRow[]>(
    `select id, size, category, object_key from cloud_file_versions where tenant_id = ? and file_id = any(?::uuid[]) order by id for update`,
    [tenantId, `{${fileIds.join(',')}}`],
  );
}

export async function deleteVersions(em: Em, tenantId: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await em.execute(`delete from cloud_file_versions where tenant_id = ? and id = any(?::uuid[])`, [
    tenantId,
    `{${ids.join(',')}}`,
  ]);
}

export interface ListedVersion {
  id: string;
  size: number;
  contentType: string | null;
  authorId: string | null;
  /** When this content was written. */
  contentAt: Date;
  /** When it stopped being the file's content. */
  createdAt: Date;
  contentHash: string | null;
  objectKey: string;
}

interface ListedRow {
  id: string;
  size: string;
  content_type: string | null;
  author_id: string | null;
  content_at: Date;
  created_at: Date;
  content_hash: string | null;
  object_key: string;
}
const listedColumns = 'id, size, content_type, author_id, content_at, created_at, content_hash, object_key';
const toListed = (r: ListedRow): ListedVersion => ({
  id: r.id,
  size: Number(r.size),
  contentType: r.content_type,
  authorId: r.author_id,
  contentAt: new Date(r.content_at),
  createdAt: new Date(r.created_at),
  contentHash: r.content_hash,
  objectKey: r.object_key,
});

/** The versions of a file, the most recently replaced first. */
export async function versionsOf(em: Em, tenantId: string, fileId: string): Promise<ListedVersion[]> {
  const rows = await em.execute<ListedRow[]>(
    `select ${listedColumns} from cloud_file_versions where tenant_id = ? and file_id = ? order by created_at desc, id desc`,
    [tenantId, fileId],
  );
  return rows.map(toListed);
}

/** The file a version belongs to (an overwrite's version has its upload's id), or null. */
export async function fileOfVersion(em: Em, tenantId: string, versionId: string): Promise<string | null> {
  const rows = await em.execute<{ file_id: string }[]>(
    `select file_id from cloud_file_versions where id = ? and tenant_id = ?`,
    [versionId, tenantId],
  );
  return rows[0]?.file_id ?? null;
}

/** One version of a live file of the drive, or null. */
export async function versionOf(em: Em, tenantId: string, fileId: string, id: string): Promise<ListedVersion | null> {
  const rows = await em.execute<ListedRow[]>(
    `select ${listedColumns} from cloud_file_versions v where tenant_id = ? and file_id = ? and id = ?
       and exists (select 1 from cloud_nodes n where n.id = v.file_id and n.tenant_id = v.tenant_id and n.kind = 'file' and n.purpose = 'file' and n.trashed_at is null)`,
    [tenantId, fileId, id],
  );
  return rows.length ? toListed(rows[0]) : null;
}

/**
 * Restores a version (the caller's transaction holds the file, lockLiveFile): the current content becomes a
 * version, the chosen one the file's content (its object, size, type, author, hash), its row gone. No byte is
 * added or freed: both contents were counted and stay counted. False when the version is gone.
 */
export async function swapInVersion(em: Em, tenantId: string, fileId: string, versionId: string): Promise<boolean> {
  const [chosen] = await em.execute<{ id: string }[]>(
    `select id from cloud_file_versions where id = ? and tenant_id = ? and file_id = ? for update`,
    [versionId, tenantId, fileId],
  );
  if (!chosen) return false;
  await em.execute(KEEP_CURRENT_SQL, [newId(), fileId, tenantId]);
  await em.execute(
    `update cloud_nodes n set size = v.size, content_type = v.content_type, category = v.category, object_key = v.object_key,
       content_author_id = v.author_id, content_hash = v.content_hash, updated_at = now()
     from cloud_file_versions v where v.id = ? and v.tenant_id = ? and n.id = ? and n.tenant_id = ?`,
    [versionId, tenantId, fileId, tenantId],
  );
  await em.execute(`delete from cloud_file_versions where id = ? and tenant_id = ?`, [versionId, tenantId]);
  return true;
}

/** One version of a file, locked FOR UPDATE (a deletion), or null. */
export async function lockVersion(em: Em, tenantId: string, fileId: string, id: string): Promise<VersionRow | null> {
  const rows = await em.execute<VersionRow[]>(
    `select id, size, category, object_key from cloud_file_versions where id = ? and tenant_id = ? and file_id = ? for update`,
    [id, tenantId, fileId],
  );
  return rows[0] ?? null;
}

/** Files having versions, of every organisation, in (tenant, file) order after `after` (the retention's batches). */
export function filesWithVersions(
  em: Em,
  after: { tenantId: string; fileId: string } | null,
  limit: number,
): Promise<{ tenant_id: string; file_id: string }[]> {
  return em.execute<{ tenant_id: string; file_id: string }[]>(
    `select distinct tenant_id, file_id from cloud_file_versions
     ${after ? 'where (tenant_id, file_id) > (?::uuid, ?::uuid)' : ''} order by tenant_id, file_id limit ?`,
    [...(after ? [after.tenantId, after.fileId] : []), limit],
  );
}

/** The versions of a file with their content times, locked FOR UPDATE in id order (the retention). */
export function lockAgedVersions(
  em: Em,
  tenantId: string,
  fileId: string,
): Promise<(VersionRow & { content_at: Date })[]> {
  return em.execute<(VersionRow & { content_at: Date })[]>(
    `select id, size, category, object_key, content_at from cloud_file_versions where tenant_id = ? and file_id = ? order by id for update`,
    [tenantId, fileId],
  );
}
