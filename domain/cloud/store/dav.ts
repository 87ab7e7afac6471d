import type { NodeKind } from '../../../entities/cloud/node';
import type { DavLockDepth, DavLockScope } from '../../../entities/cloud/dav';
import type { Em } from '../../../lib/db';
import { ROOT_ID } from '../names';

/** Statements of the WebDAV view of the drive: nodes by path, dead properties, locks on paths. */

export interface DavNode {
  id: string;
  kind: NodeKind;
  name: string;
  parentId: string | null;
  size: number;
  contentType: string | null;
  objectKey: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface NodeRow {
  id: string;
  kind: NodeKind;
  name: string;
  parent_id: string | null;
  size: string;
  content_type: string | null;
  object_key: string | null;
  created_at: Date;
  updated_at: Date;
}

const nodeColumns = 'id, kind, name, parent_id, size, content_type, object_key, created_at, updated_at';
const toNode = (r: NodeRow): DavNode => ({
  id: r.id,
  kind: r.kind,
  name: r.name,
  parentId: r.parent_id,
  size: Number(r.size),
  contentType: r.content_type,
  objectKey: r.object_key,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** The live drive node named `name` in a folder (null: the root), compared as the unique index compares names. */
export async function childNamed(em: Em, tenantId: string, parentId: string | null, name: string) {
  const rows = await em.execute<NodeRow[]>(
    `select ${nodeColumns} from cloud_nodes where tenant_id = ? and coalesce(parent_id, ?::uuid) = ?::uuid and lower(name) = lower(?) and trashed_at is null and purpose = 'file'`,
    [tenantId, ROOT_ID, parentId ?? ROOT_ID, name],
  );
  return rows.length ? toNode(rows[0]) : null;
}

/** The live drive nodes of a folder (null: the root), folders first, by name. */
export async function childrenOf(em: Em, tenantId: string, parentId: string | null): Promise<DavNode[]> {
  const rows = await em.execute<NodeRow[]>(
    `select ${nodeColumns} from cloud_nodes where tenant_id = ? and coalesce(parent_id, ?::uuid) = ?::uuid and trashed_at is null and purpose = 'file' order by (kind = 'file'), lower(name), id`,
    [tenantId, ROOT_ID, parentId ?? ROOT_ID],
  );
  return rows.map(toNode);
}

/** Updates a node's name and parent at once (a MOVE that renames); fails on the unique name index. */
export async function placeNode(em: Em, tenantId: string, id: string, parentId: string | null, name: string) {
  await em.execute(
    `update cloud_nodes set parent_id = ?, name = ?, updated_at = now() where id = ? and tenant_id = ? and trashed_at is null`,
    [parentId, name, id, tenantId],
  );
}

// ---- Dead properties ----

export interface DeadProperty {
  nodeId: string;
  namespace: string;
  name: string;
  value: string;
}

export async function propertiesOf(em: Em, tenantId: string, nodeIds: string[]): Promise<DeadProperty[]> {
  if (!nodeIds.length) return [];
  const rows = await em.execute<{ node_id: string; namespace: string; name: string; value: string }[]>(
    `select node_id, namespace, name, value from cloud_dav_properties where tenant_id = ? and node_id = any(?::uuid[]) order by namespace, name`,
    [tenantId, `{${nodeIds.join(',')}}`],
  );
  return rows.map((r) => ({ nodeId: r.node_id, namespace: r.namespace, name: r.name, value: r.value }));
}

export async function setProperty(em: Em, tenantId: string, property: DeadProperty): Promise<void> {
  await em.execute(
    `insert into cloud_dav_properties (node_id, namespace, name, tenant_id, value, updated_at) values (?, ?, ?, ?, ?, now())
     on conflict (node_id, namespace, name) do update set value = excluded.value, updated_at = now()`,
    [property.nodeId, property.namespace, property.name, tenantId, property.value],
  );
}

export async function removeProperty(em: Em, tenantId: string, nodeId: string, namespace: string, name: string) {
  await em.execute(
    `delete from cloud_dav_properties where tenant_id = ? and node_id = ? and namespace = ? and name = ?`,
    [tenantId, nodeId, namespace, name],
  );
}

export async function copyProperties(em: Em, tenantId: string, fromId: string, toId: string): Promise<void> {
  await em.execute(
    `insert into cloud_dav_properties (node_id, namespace, name, tenant_id, value, updated_at)
     select ?, namespace, name, tenant_id, value, now() from cloud_dav_properties where tenant_id = ? and node_id = ?
     on conflict (node_id, namespace, name) do update set value = excluded.value, updated_at = now()`,
    [toId, tenantId, fromId],
  );
}

// ---- Locks ----

export interface DavLockRow {
  token: string;
  pathKey: string;
  depth: DavLockDepth;
  scope: DavLockScope;
  ownerXml: string | null;
  userId: string;
  timeoutSeconds: number;
  expiresAt: Date;
}

interface LockRow {
  token: string;
  path_key: string;
  depth: DavLockDepth;
  scope: DavLockScope;
  owner_xml: string | null;
  user_id: string;
  timeout_seconds: number;
  expires_at: Date;
}
const lockColumns = 'token, path_key, depth, scope, owner_xml, user_id, timeout_seconds, expires_at';
const toLock = (r: LockRow): DavLockRow => ({
  token: r.token,
  pathKey: r.path_key,
  depth: r.depth,
  scope: r.scope,
  ownerXml: r.owner_xml,
  userId: r.user_id,
  timeoutSeconds: Number(r.timeout_seconds),
  expiresAt: new Date(r.expires_at),
});

/** Serialises the lock changes of an organisation until the transaction ends; expired locks are deleted. */
export async function lockDavLocks(em: Em, tenantId: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`cloud_dav_locks:${tenantId}`]);
  await em.execute(`delete from cloud_dav_locks where tenant_id = ? and expires_at <= now()`, [tenantId]);
}

/** Whether the organisation holds any live WebDAV lock (the API's writes skip the path look when not). */
export async function anyLiveLock(em: Em, tenantId: string): Promise<boolean> {
  const [row] = await em.execute<{ any: boolean }[]>(
    `select exists (select 1 from cloud_dav_locks where tenant_id = ? and expires_at > now()) as any`,
    [tenantId],
  );
  return row.any;
}

/**
 * Live locks that cover a path: on it, or depth infinity on one of its ancestors; with `below`, also the
 * locks inside it (a depth-infinity LOCK, a DELETE or MOVE of a collection conflicts with those).
 */
export async function locksAround(em: Em, tenantId: string, pathKey: string, below = false): Promise<DavLockRow[]> {
  const rows = await em.execute<LockRow[]>(
    `select ${lockColumns} from cloud_dav_locks where tenant_id = ? and expires_at > now() and (
       path_key = ?
       or (depth = 'infinity' and (path_key = '/' or left(?, length(path_key) + 1) = path_key || '/'))
       ${below ? `or left(path_key, length(?) + 1) = ? || '/' or ? = '/'` : ''}
     ) order by created_at`,
    [tenantId, pathKey, pathKey, ...(below ? [pathKey, pathKey, pathKey] : [])],
  );
  return rows.map(toLock);
}

export async function lockByToken(em: Em, tenantId: string, token: string): Promise<DavLockRow | null> {
  const rows = await em.execute<LockRow[]>(
    `select ${lockColumns} from cloud_dav_locks where tenant_id = ? and token = ? and expires_at > now()`,
    [tenantId, token],
  );
  return rows.length ? toLock(rows[0]) : null;
}

export async function insertLock(em: Em, lock: DavLockRow & { id: string; tenantId: string }): Promise<void> {
  await em.execute(
    `insert into cloud_dav_locks (id, tenant_id, created_at, token, path_key, depth, scope, owner_xml, user_id, timeout_seconds, expires_at) values (?, ?, now(), ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      lock.id,
      lock.tenantId,
      lock.token,
      lock.pathKey,
      lock.depth,
      lock.scope,
      lock.ownerXml,
      lock.userId,
      lock.timeoutSeconds,
      lock.expiresAt,
    ],
  );
}

export async function refreshLock(em: Em, tenantId: string, token: string, timeoutSeconds: number) {
  await em.execute(
    `update cloud_dav_locks set timeout_seconds = ?, expires_at = now() + make_interval(secs => ?) where tenant_id = ? and token = ?`,
    [timeoutSeconds, timeoutSeconds, tenantId, token],
  );
}

export async function deleteLock(em: Em, tenantId: string, token: string): Promise<boolean> {
  const rows = await em.execute(`delete from cloud_dav_locks where tenant_id = ? and token = ? returning id`, [
    tenantId,
    token,
  ]);
  return rows.length > 0;
}

/** Deletes the locks on a path and inside it (its resource was deleted or moved away). */
export async function deleteLocksWithin(em: Em, tenantId: string, pathKey: string): Promise<void> {
  await em.execute(
    `delete from cloud_dav_locks where tenant_id = ? and (path_key = ? or left(path_key, length(?) + 1) = ? || '/' or ? = '/')`,
    [tenantId, pathKey, pathKey, pathKey, pathKey],
  );
}
