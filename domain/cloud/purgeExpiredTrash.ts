import type { Services } from '../services';
import { notify } from '../notifications/notify';
import { purgeNodes } from './purge';
import { trashRootsBefore } from './store/nodes';

/**
 * The retention purge: what has been in the trash longer than CLOUD_TRASH_RETENTION_DAYS is deleted with its
 * objects, a batch of deletions at a time (a job's worth; the next run takes the rest). Returns how many
 * deletions it purged.
 */
export async function purgeExpiredTrash(services: Services, batch = 200): Promise<number> {
  const cutoff = new Date(Date.now() - services.config.CLOUD_TRASH_RETENTION_DAYS * 86_400_000);
  const roots = await trashRootsBefore(services.orm.em.fork(), cutoff, batch);
  const byTenant = new Map<string, string[]>();
  for (const r of roots) byTenant.set(r.tenant_id, [...(byTenant.get(r.tenant_id) ?? []), r.id]);
  for (const [tenantId, trashRootIds] of byTenant) {
    // Still past retention when purged: a root restored and trashed again meanwhile waits its own term.
    const purged = await purgeNodes(services, tenantId, { trashRootIds, trashedBefore: cutoff });
    void notify(services, 'cloud', [{ event: 'trash.purged', tenantId, subject: { userId: null }, data: purged }]);
  }
  return roots.length;
}
