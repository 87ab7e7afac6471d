import { pgArray, type Em } from '../../../lib/db';

/** Statements of the drive's thumbnails (cloud_previews): what the worker reads and records, what readers get. */

/** A live image of the drive the worker may preview, with the source of the preview it has (if any). */
export interface PreviewSource {
  object_key: string;
  content_type: string | null;
  size: string | number;
  preview_source: string | null;
}

/** The live drive image or PDF (PREVIEWED_CATEGORIES) `nodeId` of the organisation with its object, or null (trashed, gone, not an image). */
export async function previewSource(em: Em, tenantId: string, nodeId: string): Promise<PreviewSource | null> {
  const [row] = await em.execute<PreviewSource[]>(
    `select n.object_key, n.content_type, n.size, p.source_key as preview_source
     from cloud_nodes n left join cloud_previews p on p.node_id = n.id
     where n.id = ? and n.tenant_id = ? and n.kind = 'file' and n.purpose = 'file' and n.category in ('image', 'pdf')
       and n.trashed_at is null and n.object_key is not null`,
    [nodeId, tenantId],
  );
  return row ?? null;
}

export interface MadePreview {
  tenantId: string;
  nodeId: string;
  sourceKey: string;
  state: 'ready' | 'failed';
  objectKey: string | null;
  width: number | null;
  height: number | null;
  size: number | null;
}

/**
 * Records a preview in a transaction holding the file's row, only while the file's content is still `sourceKey` (an
 * overwrite meanwhile queued a preview of its own). Returns the object key of the preview it replaced (null: none),
 * or false when the file moved on (the caller deletes what it made).
 */
export async function recordPreview(em: Em, made: MadePreview): Promise<string | null | false> {
  return em.transactional(async (tx) => {
    const [file] = await tx.execute<{ id: string }[]>(
      `select id from cloud_nodes where id = ? and tenant_id = ? and object_key = ? and trashed_at is null for update`,
      [made.nodeId, made.tenantId, made.sourceKey],
    );
    if (!file) return false;
    const [before] = await tx.execute<{ object_key: string | null }[]>(
      `select object_key from cloud_previews where node_id = ?`,
      [made.nodeId],
    );
    await tx.execute(
      `insert into cloud_previews (node_id, tenant_id, source_key, state, object_key, width, height, size, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, now())
       on conflict (node_id) do update set source_key = excluded.source_key, state = excluded.state, object_key = excluded.object_key,
         width = excluded.width, height = excluded.height, size = excluded.size, created_at = excluded.created_at`,
      [made.nodeId, made.tenantId, made.sourceKey, made.state, made.objectKey, made.width, made.height, made.size],
    );
    const previous = before?.object_key ?? null;
    return previous === made.objectKey ? null : previous;
  });
}

/** The current ready preview of a live file of the organisation (made from the content it has now), or null. */
export async function currentPreview(
  em: Em,
  tenantId: string,
  nodeId: string,
): Promise<{ object_key: string; width: number; height: number } | null> {
  const [row] = await em.execute<{ object_key: string; width: number; height: number }[]>(
    `select p.object_key, p.width, p.height from cloud_previews p
     join cloud_nodes n on n.id = p.node_id and n.object_key = p.source_key and n.trashed_at is null
     where p.node_id = ? and p.tenant_id = ? and n.tenant_id = ? and p.state = 'ready'`,
    [nodeId, tenantId, tenantId],
  );
  return row ?? null;
}

/** The same, of any organisation (the signed preview address is checked first), with the file's tenant. */
export async function currentPreviewOfAnyTenant(
  em: Em,
  nodeId: string,
): Promise<{ object_key: string; tenant_id: string } | null> {
  const [row] = await em.execute<{ object_key: string; tenant_id: string }[]>(
    `select p.object_key, p.tenant_id from cloud_previews p
     join cloud_nodes n on n.id = p.node_id and n.object_key = p.source_key and n.trashed_at is null and n.tenant_id = p.tenant_id
     where p.node_id = ? and p.state = 'ready'`,
    [nodeId],
  );
  return row ?? null;
}

/**
 * Live drive images of every organisation changed between `from` and `to` whose preview is missing or of an older
 * content: what the sweep queues again (a job lost before it was queued, e.g. a crash right after the upload).
 */
export function imagesWithoutPreview(
  em: Em,
  from: Date,
  to: Date,
  limit: number,
): Promise<{ id: string; tenant_id: string; object_key: string }[]> {
  return em.execute(
    `select n.id, n.tenant_id, n.object_key from cloud_nodes n
     where n.kind = 'file' and n.category in ('image', 'pdf') and n.trashed_at is null and n.purpose = 'file'
       and n.updated_at >= ? and n.updated_at < ? and n.object_key is not null
       and not exists (select 1 from cloud_previews p where p.node_id = n.id and p.source_key = n.object_key)
     order by n.updated_at desc limit ?`,
    [from, to, limit],
  );
}

/** Object keys of the previews of these nodes (a purge deletes them with the files). */
export async function previewKeysOf(em: Em, tenantId: string, nodeIds: string[]): Promise<string[]> {
  if (!nodeIds.length) return [];
  const rows = await em.execute<{ object_key: string }[]>(
    `select object_key from cloud_previews where tenant_id = ? and node_id = any(?::uuid[]) and object_key is not null`,
    [tenantId, pgArray(nodeIds)],
  );
  return rows.map((r) => r.object_key);
}
