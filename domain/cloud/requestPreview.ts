import { createHash } from 'node:crypto';
import type { FileCategory } from '../../entities/cloud/node';
import { cloudPreviewsQueue } from '../../queues/cloud';
import type { Services } from '../services';

/** What gets a thumbnail: images, and PDFs (their first page). */
export const PREVIEWED_CATEGORIES: readonly string[] = ['image', 'pdf'];

/** One job per content of a file: a repeat (the upload path and the sweep both asking) is the same job. */
export const previewJobId = (nodeId: string, objectKey: string) =>
  `preview-${nodeId}-${createHash('sha256').update(objectKey).digest('hex').slice(0, 16)}`;

/**
 * After a drive image's content changed (upload, overwrite, WebDAV PUT, a link's edit, a version restored): queue its
 * thumbnail. Best effort, after the commit: a job not queued (Redis away) is queued by the sweep within a minute
 * (queueMissingPreviews), and a missing preview never blocks the file.
 */
export function requestPreview(
  services: Services,
  file: { tenantId: string; id: string; objectKey?: string | null; category?: FileCategory | string | null },
): void {
  if (!PREVIEWED_CATEGORIES.includes(file.category ?? '') || !file.objectKey) return;
  services.queues
    .add(
      cloudPreviewsQueue,
      { tenantId: file.tenantId, nodeId: file.id },
      { jobId: previewJobId(file.id, file.objectKey) },
    )
    .catch((err: Error) =>
      services.logger.warn({ err: err.message, fileId: file.id }, 'cloud preview not queued; the sweep will'),
    );
}
