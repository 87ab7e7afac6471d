import type { Services } from '../services';
import { purgeExpiredTrash } from './purgeExpiredTrash';
import { noticeExpiringShares } from './noticeExpiringShares';
import { queueMissingPreviews } from './queueMissingPreviews';
import { releaseExpiredUploads } from './releaseExpiredUploads';

/**
 * The clock's cloud sweep: stale reservations and their stray objects, the trash past retention, expiry notices, and
 * the previews the upload paths did not queue.
 */
export async function sweepCloud(
  services: Services,
): Promise<{ uploads: number; trash: number; notices: number; previews: number }> {
  const uploads = await releaseExpiredUploads(services);
  const trash = await purgeExpiredTrash(services);
  const notices = await noticeExpiringShares(services);
  const previews = await queueMissingPreviews(services);
  return { uploads, trash, notices, previews };
}
