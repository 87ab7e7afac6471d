import type { Services } from '../services';
import { purgeExpiredTrash } from './purgeExpiredTrash';
import { noticeExpiringShares } from './noticeExpiringShares';
import { releaseExpiredUploads } from './releaseExpiredUploads';

/** The clock's cloud sweep: stale reservations and their stray objects, the trash past retention, expiry notices. */
export async function sweepCloud(services: Services): Promise<{ uploads: number; trash: number; notices: number }> {
  const uploads = await releaseExpiredUploads(services);
  const trash = await purgeExpiredTrash(services);
  const notices = await noticeExpiringShares(services);
  return { uploads, trash, notices };
}
