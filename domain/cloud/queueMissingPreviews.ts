import { cloudPreviewsQueue } from '../../queues/cloud';
import type { Services } from '../services';
import { previewJobId } from './requestPreview';
import { imagesWithoutPreview } from './store/previews';

/** Images looked at by one pass; the upload paths queue their own, so this only catches what they missed. */
const BATCH = 200;
/** A minute's grace for the upload path's own job; a day back at most (older content had its chance). */
const GRACE_MS = 60_000;
const LOOKBACK_MS = 24 * 3600_000;

/**
 * The sweep's part for previews: drive images changed in the last day without a preview of their current content,
 * queued (the same job id as the upload path's, so a job still waiting is not doubled). Returns how many.
 */
export async function queueMissingPreviews(services: Services, now = Date.now()): Promise<number> {
  const rows = await imagesWithoutPreview(
    services.orm.em.fork(),
    new Date(now - LOOKBACK_MS),
    new Date(now - GRACE_MS),
    BATCH,
  );
  if (!rows.length) return 0;
  await services.queues.addBulk(
    cloudPreviewsQueue,
    rows.map((r) => ({
      payload: { tenantId: r.tenant_id, nodeId: r.id },
      options: { jobId: previewJobId(r.id, r.object_key) },
    })),
  );
  return rows.length;
}
