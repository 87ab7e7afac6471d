import type { Services } from '../services';
import { purgeExpiredTrash } from './purge';
import { discardUpload } from './uploads';

/**
 * Uploads never confirmed in time: each one's object (a PUT that came without its confirmation) is deleted
 * and its reservation released. A batch per run.
 */
export async function releaseExpiredUploads(services: Services, batch = 500): Promise<number> {
  const rows = await services.orm.em
    .fork()
    .execute<{ id: string; tenant_id: string; size: string; object_key: string }[]>(`select id, tenant_id, size, object_key from cloud_uploads where expires_at < now() order by expires_at limit ?`, [batch]);
  for (const r of rows) await discardUpload({ services, tenantId: r.tenant_id }, { id: r.id, size: Number(r.size), objectKey: r.object_key });
  return rows.length;
}

/** The clock's cloud sweep: stale reservations and their stray objects, then the trash past retention. */
export async function sweepCloud(services: Services): Promise<{ uploads: number; trash: number }> {
  const uploads = await releaseExpiredUploads(services);
  const trash = await purgeExpiredTrash(services);
  return { uploads, trash };
}
