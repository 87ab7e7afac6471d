import type { Em } from '../../lib/db';
import type { Services } from '../services';
import { notify } from '../notifications/notify';
import { addUsage } from './quota';

interface PurgedRow {
  id: string;
  kind: string;
  size: string;
  category: string | null;
  object_key: string | null;
}

/** Nodes named by id, or trash roots (with what was trashed with them), optionally trashed before a date. */
export type PurgeSelection = { ids: string[] } | { trashRootIds: string[]; trashedBefore?: Date };

const uuids = (ids: string[]) => `{${ids.join(',')}}`;
const columns = 'id, kind, size, category, object_key';

/**
 * Locks the rows to purge (FOR UPDATE, in id order). Trash roots are locked first, and only while still
 * trashed roots (a restore meanwhile cleared trash_root_id): restoreNode locks the root before its subtree,
 * so a restore either committed before (its nodes are skipped) or waits for the purge and then finds nothing.
 */
async function lockPurged(tx: Em, tenantId: string, where: PurgeSelection): Promise<PurgedRow[]> {
  if ('ids' in where) return tx.execute<PurgedRow[]>(`select ${columns} from cloud_nodes where tenant_id = ? and id = any(?::uuid[]) order by id for update`, [tenantId, uuids(where.ids)]);
  const before = where.trashedBefore ? ' and trashed_at < ?' : '';
  const roots = await tx.execute<{ id: string }[]>(`select id from cloud_nodes where tenant_id = ? and id = any(?::uuid[]) and trash_root_id = id${before} order by id for update`, [tenantId, uuids(where.trashRootIds), ...(where.trashedBefore ? [where.trashedBefore] : [])]);
  if (!roots.length) return [];
  return tx.execute<PurgedRow[]>(`select ${columns} from cloud_nodes where tenant_id = ? and trash_root_id = any(?::uuid[]) order by id for update`, [tenantId, uuids(roots.map((r) => r.id))]);
}

/**
 * Deletes nodes for good, in one transaction holding their rows: their objects, then the rows (with their
 * stars and shares) and the bytes they held in the quota. No row outlives its bytes (a restore waits on the
 * lock, see lockPurged), and a failure rolls the rows back, so a retry deletes the (possibly already gone)
 * objects again: deleting a missing object succeeds on both storage adapters.
 */
export async function purgeNodes(services: Services, tenantId: string, where: PurgeSelection): Promise<{ files: number; folders: number; bytes: number }> {
  const freed = new Map<string, number>();
  const rows = await services.orm.em.fork().transactional(async (tx) => {
    const locked = await lockPurged(tx, tenantId, where);
    if (!locked.length) return locked;
    for (const row of locked) if (row.object_key) await services.storage.remove(row.object_key);
    const ids = uuids(locked.map((r) => r.id));
    await tx.execute(`delete from cloud_nodes where tenant_id = ? and id = any(?::uuid[])`, [tenantId, ids]);
    await tx.execute(`delete from cloud_stars where tenant_id = ? and node_id = any(?::uuid[])`, [tenantId, ids]);
    await tx.execute(`delete from cloud_shares where tenant_id = ? and node_id = any(?::uuid[])`, [tenantId, ids]);
    for (const g of locked) if (g.kind === 'file') freed.set(g.category ?? 'other', (freed.get(g.category ?? 'other') ?? 0) + Number(g.size));
    for (const [category, bytes] of freed) await addUsage(tx, tenantId, -bytes, category);
    return locked;
  });
  const bytes = [...freed.values()].reduce((a, b) => a + b, 0);
  return { files: rows.filter((r) => r.kind === 'file').length, folders: rows.filter((r) => r.kind === 'folder').length, bytes };
}

/**
 * The retention purge: what has been in the trash longer than CLOUD_TRASH_RETENTION_DAYS is deleted with its
 * objects, a batch of deletions at a time (a job's worth; the next run takes the rest). Returns how many
 * deletions it purged.
 */
export async function purgeExpiredTrash(services: Services, batch = 200): Promise<number> {
  const cutoff = new Date(Date.now() - services.config.CLOUD_TRASH_RETENTION_DAYS * 86_400_000);
  const roots = await services.orm.em
    .fork()
    .execute<{ id: string; tenant_id: string }[]>(`select id, tenant_id from cloud_nodes where trash_root_id = id and trashed_at < ? order by trashed_at limit ?`, [cutoff, batch]);
  const byTenant = new Map<string, string[]>();
  for (const r of roots) byTenant.set(r.tenant_id, [...(byTenant.get(r.tenant_id) ?? []), r.id]);
  for (const [tenantId, trashRootIds] of byTenant) {
    // Still past retention when purged: a root restored and trashed again meanwhile waits its own term.
    const purged = await purgeNodes(services, tenantId, { trashRootIds, trashedBefore: cutoff });
    void notify(services, 'cloud', [{ event: 'trash.purged', tenantId, subject: { userId: null }, data: purged }]);
  }
  return roots.length;
}
