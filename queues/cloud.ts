import { defineQueue } from './define';

/** Bytes another module stored (positive) or freed (negative) for an organisation (POST /api/cloud/internal/usage). */
export interface UsageJob {
  tenantId: string;
  /** The reporter's id of the change: applied once. */
  eventId: string;
  deltaBytes: number;
  category: string;
  /** The module reporting, e.g. documents, slides. */
  source: string;
}

/** Quota accounting of usage reported by other modules; each event applied once. */
export const cloudQuotaQueue = defineQueue<UsageJob>('quota', { acceptedInRedis: true, defaults: { attempts: 8 } });

/** The clock's cloud sweep: stale upload reservations and their objects, then the trash past retention. One at a time. */
export const cloudSweepQueue = defineQueue<{ slot: string }>('cloud-sweep', {
  concurrency: 1,
  defaults: { attempts: 3, removeOnComplete: { count: 100 }, removeOnFail: { age: 7 * 24 * 3600 } },
});

/** The clock's versions retention (hourly: its slots are hours, days, weeks). One at a time. */
export const cloudVersionsQueue = defineQueue<{ slot: string }>('cloud-versions', {
  concurrency: 1,
  defaults: { attempts: 3, removeOnComplete: { count: 100 }, removeOnFail: { age: 7 * 24 * 3600 } },
});

/** A thumbnail of a drive image, made after its upload or overwrite (domain/cloud/makePreview.ts). */
export interface PreviewJob {
  tenantId: string;
  nodeId: string;
}

/** Thumbnails: CPU-bound (libvips), so one at a time per worker dyno; a content that cannot be decoded is recorded, not retried. */
export const cloudPreviewsQueue = defineQueue<PreviewJob>('cloud-previews', {
  concurrency: 1,
  defaults: { attempts: 3, removeOnComplete: { age: 3600, count: 1000 } },
});
