import type { Services } from '../services';
import { expiredUploads } from './store/uploads';
import { discardUpload } from './discardUpload';

/**
 * Uploads never confirmed in time: each one's object (a PUT that came without its confirmation) is deleted, an
 * abandoned resumable upload aborted in the store (its parts deleted), and its reservation released. A batch per run.
 */
export async function releaseExpiredUploads(services: Services, batch = 500): Promise<number> {
  const rows = await expiredUploads(services.orm.em.fork(), batch);
  for (const r of rows)
    await discardUpload(
      { services, tenantId: r.tenant_id },
      { id: r.id, size: Number(r.size), objectKey: r.object_key, multipartId: r.multipart_id },
    );
  return rows.length;
}
