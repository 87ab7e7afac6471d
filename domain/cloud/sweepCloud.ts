import type { Services } from '../services';
import { purgeExpiredTrash } from './purgeExpiredTrash';
import { releaseExpiredUploads } from './releaseExpiredUploads';

/** The clock's cloud sweep: stale reservations and their stray objects, then the trash past retention. */
export async function sweepCloud(services: Services): Promise<{ uploads: number; trash: number }> {
  const uploads = await releaseExpiredUploads(services);
  const trash = await purgeExpiredTrash(services);
  return { uploads, trash };
}
