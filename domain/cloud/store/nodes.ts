import { CloudNode, DRIVE_PURPOSE, type NodeKind } from '../../../entities/cloud/node';
import { pgArray, type Em } from '../../../lib/db';
import { notFound } from '../../../lib/errors';
import { ROOT_ID } from '../names';

/** Statements of the drive's tree (cloud_nodes): creations, edits, moves, trash, restore, purge, files by id. */

/**
 * Locks a live folder of the drive against concurrent trashing (FOR SHARE) and returns its id; null stays
 * the root. 404 when it is unknown, trashed or another organisation's.
 */
export async function lockFolder(
  em: Em,
  tenantId: string,
  folderId: string | null | undefined,
): Promise<string | null> {
  if (!folderId) return null;
  const rows = await em.execute<{ id: string }[]>(
    `select id from cloud_nodes where id = ? and tenant_id = ? and kind = 'folder' and purpose = 'file' and trashed_at is null for share`,
    [folderId, tenantId],
  );
  if (!rows.length) throw notFound('Folder');
  return folderId;
}

/** The first of `candidates` free in the folder (compared with lower() on both sides, like the unique index), or null. */
export async function firstFreeName(
  em: Em,
  tenantId: string,
  parentId: string | null,
  candidates: string[],
): Promise<string | null> {
  const rows = await em.execute<{ name: string }[]>(
    `select c.name from jsonb_array_elements_text(?::jsonb) with ordinality as c(name, ord)
       where not exists (
         select 1 from cloud_nodes n
         where n.tenant_id = ? and coalesce(n.parent_id, ?::uuid) = ?::uuid and lower(n.name) = lower(c.name) and n.trashed_at is null and n.purpose = 'file'
       )
       order by c.ord limit 1`,
    [JSON.stringify(candidates), tenantId, ROOT_ID, parentId ?? ROOT_ID],
  );
  return rows.length ? rows[0].name : null;
}

export async function insertFolder(
  em: Em,
  folder: { id: string; tenantId: string; parentId: string | null; name: string; createdBy: string | null },
): Promise<void> {
  await em.execute(
    `insert into cloud_nodes (id, tenant_id, created_at, updated_at, kind, purpose, parent_id, name, size, created_by) values (?, ?, now(), now(), 'folder', 'file', ?, ?, 0, ?)`,
    [folder.id, folder.tenantId, folder.parentId, folder.name, folder.createdBy],
  );
}

/** Sets the name and/or description (null clears it) of a live node; nothing given changes nothing. */
export async function updateNode(
  em: Em,
  tenantId: string,
  id: string,
  changes: { name?: string; description?: string | null },
): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [];
  if (changes.name !== undefined) {
    sets.push('name = ?');
    params.push(changes.name);
  }
  if (changes.description !== undefined) {
    sets.push('description = ?');
    params.push(changes.description);
  }
  if (!sets.length) return;
  await em.execute(
    `update cloud_nodes set ${sets.join(', ')}, updated_at = now() where id = ? and tenant_id = ? and trashed_at is null`,
    [...params, id, tenantId],
  );
}

// ---- Tree changes: moves, trash, restore ----

/** Serialises the tree changes (moves, deletions) of an organisation until the transaction ends. */
export async function lockTree(em: Em, tenantId: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`cloud_tree:${tenantId}`]);
}

/** The live drive nodes among ids, locked FOR UPDATE in id order. */
export async function lockLiveNodes(
  em: Em,
  tenantId: string,
  ids: string[],
): Promise<{ id: string; kind: NodeKind }[]> {
  if (!ids.length) return [];
  return em.execute<{ id: string; kind: NodeKind }[]>(
    `select id, kind from cloud_nodes where tenant_id = ? and id = any(?::uuid[]) and purpose = 'file' and trashed_at is null order by id for update`,
    [tenantId, pgArray(ids)],
  );
}

/** Ids of a folder and all its ancestors. */
export async function ancestorIds(em: Em, folderId: string): Promise<Set<string>> {
  const rows = await em.execute<{ id: string }[]>(
    `with recursive up(id, parent_id) as (select id, parent_id from cloud_nodes where id = ? union select n.id, n.parent_id from cloud_nodes n join up on n.id = up.parent_id) select id from up`,
    [folderId],
  );
  return new Set(rows.map((r) => r.id));
}

/** Puts nodes into a folder (null: the root); those already there are left untouched. */
export async function setParent(em: Em, tenantId: string, ids: string[], parentId: string | null): Promise<void> {
  await em.execute(
    `update cloud_nodes set parent_id = ?, updated_at = now() where tenant_id = ? and id = any(?::uuid[]) and parent_id is distinct from ?`,
    [parentId, tenantId, pgArray(ids), parentId],
  );
}

/** The live subtree of a node (the node included), locked FOR UPDATE in id order. */
export async function lockLiveSubtree(em: Em, tenantId: string, rootId: string): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    `select id from cloud_nodes where tenant_id = ? and trashed_at is null and id in (
     with recursive sub(id) as (
       select id from cloud_nodes where id = ? and tenant_id = ? and trashed_at is null
       union all
       select n.id from cloud_nodes n join sub on n.parent_id = sub.id where n.tenant_id = ? and n.trashed_at is null
     ) select id from sub
   ) order by id for update`,
    [tenantId, rootId, tenantId, tenantId],
  );
  return rows.map((r) => r.id);
}

/** Marks nodes trashed now with `rootId` as their trash root; returns how many. */
export async function markTrashed(em: Em, tenantId: string, rootId: string, ids: string[]): Promise<number> {
  const rows = await em.execute(
    `update cloud_nodes set trashed_at = now(), trash_root_id = ?, updated_at = now() where tenant_id = ? and id = any(?::uuid[]) returning id`,
    [rootId, tenantId, pgArray(ids)],
  );
  return rows.length;
}

export interface TrashedNode {
  parentId: string | null;
  name: string;
  trashRootId: string;
}

/** A trashed drive node of this kind, or null. */
export async function trashedNode(em: Em, tenantId: string, id: string, kind: NodeKind): Promise<TrashedNode | null> {
  const rows = await em.execute<{ parent_id: string | null; name: string; trash_root_id: string }[]>(
    `select parent_id, name, trash_root_id from cloud_nodes where id = ? and tenant_id = ? and kind = ? and purpose = 'file' and trashed_at is not null`,
    [id, tenantId, kind],
  );
  return rows.length ? { parentId: rows[0].parent_id, name: rows[0].name, trashRootId: rows[0].trash_root_id } : null;
}

/** Locks a node while it is still a trash root (FOR UPDATE); null once restored or purged. */
export async function lockTrashRoot(
  em: Em,
  tenantId: string,
  id: string,
): Promise<{ parentId: string | null; name: string } | null> {
  const rows = await em.execute<{ parent_id: string | null; name: string }[]>(
    `select parent_id, name from cloud_nodes where id = ? and tenant_id = ? and trash_root_id = id for update`,
    [id, tenantId],
  );
  return rows.length ? { parentId: rows[0].parent_id, name: rows[0].name } : null;
}

/** Whether a node is live, holding it (FOR SHARE) against trashing until the transaction ends. */
export async function holdLiveNode(em: Em, tenantId: string, id: string): Promise<boolean> {
  const rows = await em.execute(
    `select 1 from cloud_nodes where id = ? and tenant_id = ? and trashed_at is null for share`,
    [id, tenantId],
  );
  return rows.length > 0;
}

/** Brings a trash root back live, at `parentId` under `name`, with everything trashed with it. */
export async function restoreTrashRoot(
  em: Em,
  tenantId: string,
  id: string,
  at: { parentId: string | null; name: string },
): Promise<void> {
  await em.execute(
    `update cloud_nodes set trashed_at = null, trash_root_id = null, parent_id = ?, name = ?, updated_at = now() where id = ?`,
    [at.parentId, at.name, id],
  );
  await em.execute(
    `update cloud_nodes set trashed_at = null, trash_root_id = null, updated_at = now() where tenant_id = ? and trash_root_id = ?`,
    [tenantId, id],
  );
}

// ---- Purge ----

export interface PurgedRow {
  id: string;
  kind: string;
  size: string;
  category: string | null;
  object_key: string | null;
}

const purgedColumns = 'id, kind, size, category, object_key';

/** Nodes by id, locked FOR UPDATE in id order. */
export function lockNodesById(em: Em, tenantId: string, ids: string[]): Promise<PurgedRow[]> {
  return em.execute<PurgedRow[]>(
    `select ${purgedColumns} from cloud_nodes where tenant_id = ? and id = any(?::uuid[]) order by id for update`,
    [tenantId, pgArray(ids)],
  );
}

/** Those of ids still trash roots (trashed before `trashedBefore` when given), locked FOR UPDATE in id order. */
export async function lockTrashRoots(em: Em, tenantId: string, ids: string[], trashedBefore?: Date): Promise<string[]> {
  const before = trashedBefore ? ' and trashed_at < ?' : '';
  const rows = await em.execute<{ id: string }[]>(
    `select id from cloud_nodes where tenant_id = ? and id = any(?::uuid[]) and trash_root_id = id${before} order by id for update`,
    [tenantId, pgArray(ids), ...(trashedBefore ? [trashedBefore] : [])],
  );
  return rows.map((r) => r.id);
}

/** Everything trashed with these roots (the roots included), locked FOR UPDATE in id order. */
export function lockTrashedWith(em: Em, tenantId: string, rootIds: string[]): Promise<PurgedRow[]> {
  return em.execute<PurgedRow[]>(
    `select ${purgedColumns} from cloud_nodes where tenant_id = ? and trash_root_id = any(?::uuid[]) order by id for update`,
    [tenantId, pgArray(rootIds)],
  );
}

/** Deletes nodes with their stars, shares and WebDAV properties. */
export async function deleteNodes(em: Em, tenantId: string, ids: string[]): Promise<void> {
  const list = pgArray(ids);
  await em.execute(`delete from cloud_nodes where tenant_id = ? and id = any(?::uuid[])`, [tenantId, list]);
  await em.execute(`delete from cloud_stars where tenant_id = ? and node_id = any(?::uuid[])`, [tenantId, list]);
  await em.execute(`delete from cloud_previews where tenant_id = ? and node_id = any(?::uuid[])`, [tenantId, list]);
  await em.execute(`delete from cloud_shares where tenant_id = ? and node_id = any(?::uuid[])`, [tenantId, list]);
  await em.execute(`delete from cloud_dav_properties where tenant_id = ? and node_id = any(?::uuid[])`, [
    tenantId,
    list,
  ]);
}

/** Trash roots of every organisation trashed before the cutoff, oldest first. */
export function trashRootsBefore(em: Em, cutoff: Date, limit: number): Promise<{ id: string; tenant_id: string }[]> {
  return em.execute<{ id: string; tenant_id: string }[]>(
    `select id, tenant_id from cloud_nodes where trash_root_id = id and trashed_at < ? order by trashed_at limit ?`,
    [cutoff, limit],
  );
}

/** Stored bytes of the organisation's files in the trash. */
export async function trashBytes(em: Em, tenantId: string): Promise<number> {
  const [trash] = await em.execute<{ bytes: string | null }[]>(
    `select sum(size) as bytes from cloud_nodes where tenant_id = ? and trashed_at is not null and kind = 'file'`,
    [tenantId],
  );
  return Number(trash?.bytes ?? 0);
}

// ---- Files by id (downloads, shares, uploads) ----

/** A live file of the drive of the em's organisation (tenant filter). */
export const liveFile = (em: Em, id: string) =>
  em.findOne(CloudNode, { id, kind: 'file', purpose: 'file', trashedAt: null });

/** A live file of the drive of whichever organisation (anonymous addresses: the signed token names the file). */
export const liveFileOfAnyTenant = (em: Em, id: string) =>
  em.findOne(CloudNode, { id, kind: 'file', purpose: 'file', trashedAt: null }, { filters: { tenant: false } });

/** A live file (of any purpose) of a given organisation, outside any tenant filter. */
export const liveFileOf = (em: Em, tenantId: string, id: string) =>
  em.findOne(CloudNode, { id, tenantId, kind: 'file', trashedAt: null }, { filters: { tenant: false } });

/** A live folder of a given organisation's drive, outside any tenant filter. */
export const liveFolderOf = (em: Em, tenantId: string, id: string) =>
  em.findOne(
    CloudNode,
    { id, tenantId, kind: 'folder', purpose: DRIVE_PURPOSE, trashedAt: null },
    { filters: { tenant: false } },
  );

/** A file (of any purpose or liveness) of the em's organisation. */
export const fileById = (em: Em, id: string) => em.findOne(CloudNode, { id, kind: 'file' });

/** Whether the organisation has a file recorded at this object key. */
export async function fileAtKey(em: Em, tenantId: string, id: string, objectKey: string): Promise<boolean> {
  const rows = await em.execute(`select 1 from cloud_nodes where id = ? and tenant_id = ? and object_key = ?`, [
    id,
    tenantId,
    objectKey,
  ]);
  return rows.length > 0;
}
