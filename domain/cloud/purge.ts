import type { Em } from '../../lib/db';
import type { Services } from '../services';
import { deleteVersions, lockVersionsOf } from './store/versions';
import { lockNodesById, lockTrashedWith, lockTrashRoots, deleteNodes, type PurgedRow } from './store/nodes';
import { previewKeysOf } from './store/previews';
import { addUsage } from './store/usage';

/** Nodes named by id, or trash roots (with what was trashed with them), optionally trashed before a date. */
export type PurgeSelection = { ids: string[] } | { trashRootIds: string[]; trashedBefore?: Date };

/**
 * Locks the rows to purge (FOR UPDATE, in id order). Trash roots are locked first, and only while still
 * trashed roots (a restore meanwhile cleared trash_root_id): restoreNode locks the root before its subtree,
 * so a restore either committed before (its nodes are skipped) or waits for the purge and then finds nothing.
 */
async function lockPurged(tx: Em, tenantId: string, where: PurgeSelection): Promise<PurgedRow[]> {
  if ('ids' in where) return lockNodesById(tx, tenantId, where.ids);
  const roots = await lockTrashRoots(tx, tenantId, where.trashRootIds, where.trashedBefore);
  if (!roots.length) return [];
  return lockTrashedWith(tx, tenantId, roots);
}

/** Bytes the purged files held, by category (a file without one counts as `other`); folders hold none. */
export function freedBytes(rows: Pick<PurgedRow, 'kind' | 'size' | 'category'>[]): Map<string, number> {
  const freed = new Map<string, number>();
  for (const g of rows)
    if (g.kind === 'file') freed.set(g.category ?? 'other', (freed.get(g.category ?? 'other') ?? 0) + Number(g.size));
  return freed;
}

/**
 * Deletes nodes for good, in one transaction holding their rows: their objects, their versions' and previews' objects, then
 * the rows (with their stars, shares and versions) and the bytes they held in the quota. No row outlives its bytes (a restore waits on the
 * lock, see lockPurged), and a failure rolls the rows back, so a retry deletes the (possibly already gone)
 * objects again: deleting a missing object succeeds on both storage adapters.
 */
export async function purgeNodes(
  services: Services,
  tenantId: string,
  where: PurgeSelection,
): Promise<{ files: number; folders: number; bytes: number }> {
  let freed = new Map<string, number>();
  const rows = await services.orm.em.fork().transactional(async (tx) => {
    const locked = await lockPurged(tx, tenantId, where);
    if (!locked.length) return locked;
    // A file's versions go with it: their objects, rows and bytes.
    const versions = await lockVersionsOf(
      tx,
      tenantId,
      locked.filter((r) => r.kind === 'file').map((r) => r.id),
    );
    const previews = await previewKeysOf(
      tx,
      tenantId,
      locked.filter((r) => r.kind === 'file').map((r) => r.id),
    );
    for (const row of locked) if (row.object_key) await services.storage.remove(row.object_key);
    for (const version of versions) await services.storage.remove(version.object_key);
    for (const key of previews) await services.storage.remove(key);
    await deleteVersions(
      tx,
      tenantId,
      versions.map((v) => v.id),
    );
    await deleteNodes(
      tx,
      tenantId,
      locked.map((r) => r.id),
    );
    freed = freedBytes([...locked, ...versions.map((v) => ({ ...v, kind: 'file' }))]);
    for (const [category, bytes] of freed) await addUsage(tx, tenantId, -bytes, category);
    return locked;
  });
  const bytes = [...freed.values()].reduce((a, b) => a + b, 0);
  return {
    files: rows.filter((r) => r.kind === 'file').length,
    folders: rows.filter((r) => r.kind === 'folder').length,
    bytes,
  };
}
