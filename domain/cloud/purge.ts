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

/**
 * Deletes nodes for good: their objects first, then the rows (with their stars and shares) and the bytes
 * they held in the quota, in one transaction. A failure in between leaves the rows, so a retry deletes the
 * (possibly already gone) objects again: deleting a missing object succeeds on both storage adapters.
 */
export async function purgeNodes(services: Services, tenantId: string, where: { trashRootIds: string[] } | { ids: string[] }): Promise<{ files: number; folders: number; bytes: number }> {
  const em = services.orm.em.fork();
  const column = 'ids' in where ? 'id' : 'trash_root_id';
  const ids = 'ids' in where ? where.ids : where.trashRootIds;
  const sel = `tenant_id = ? and ${column} = any(?::uuid[])`;
  const params = [tenantId, `{${ids.join(',')}}`];
  const rows = await em.execute<PurgedRow[]>(`select id, kind, size, category, object_key from cloud_nodes where ${sel}`, params);
  for (const row of rows) if (row.object_key) await services.storage.remove(row.object_key);
  const freed = new Map<string, number>();
  await em.transactional(async (tx) => {
    const gone = await tx.execute<PurgedRow[]>(`delete from cloud_nodes where ${sel} returning id, kind, size, category, object_key`, params);
    const goneIds = `{${gone.map((g) => g.id).join(',')}}`;
    await tx.execute(`delete from cloud_stars where tenant_id = ? and node_id = any(?::uuid[])`, [tenantId, goneIds]);
    await tx.execute(`delete from cloud_shares where tenant_id = ? and node_id = any(?::uuid[])`, [tenantId, goneIds]);
    for (const g of gone) if (g.kind === 'file') freed.set(g.category ?? 'other', (freed.get(g.category ?? 'other') ?? 0) + Number(g.size));
    for (const [category, bytes] of freed) await addUsage(tx, tenantId, -bytes, category);
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
    const purged = await purgeNodes(services, tenantId, { trashRootIds });
    void notify(services, 'cloud', [{ event: 'trash.purged', tenantId, subject: { userId: null }, data: purged }]);
  }
  return roots.length;
}
