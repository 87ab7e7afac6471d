import { defineQueue } from './define';

/** One telemetry event as the headset sent it (validated). */
export interface TelemetryEventPayload {
  /** Whose event; the sender's when absent. */
  userId?: string;
  type: string;
  label: string;
  detail: string;
}

/** One accepted telemetry batch (one POST). `batchKey` is its Idempotency-Key, or an id given at the edge. */
export interface TelemetryJob {
  tenantId: string;
  sessionId: string;
  batchKey: string;
  /** Who sent the batch: the user of events without a userId. */
  senderId: string;
  /** ISO time the edge accepted the batch. */
  receivedAt: string;
  events: TelemetryEventPayload[];
}

/**
 * Telemetry is the module's hot queue: many small jobs, applied in groups by the worker (see
 * workers/vr/telemetry.ts), so its concurrency is the size of a group rather than parallel work. A completed
 * job is deleted at once (less Redis work per job): idempotency rests on Redis keys and the database. A 202'd
 * batch lives in its job until it is applied (Redis persists it: README, Outages).
 */
export const telemetryQueue = defineQueue<TelemetryJob>('vr-telemetry', {
  concurrency: 64,
  acceptedInRedis: true,
  defaults: { attempts: 6, backoff: { type: 'exponential', delay: 500 }, removeOnComplete: true },
});

/** The clock's presence sweep: finds expired presence and records the departures. One at a time. */
export const presenceSweepQueue = defineQueue<Record<string, never>>('vr-presence-sweep', {
  concurrency: 1,
  defaults: {
    attempts: 3,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { count: 100 },
    removeOnFail: { age: 24 * 3600 },
  },
});

/** The clock's daily telemetry partitions pass (domain/vr/maintainPartitions.ts). One at a time. */
export const telemetryPartitionsQueue = defineQueue<{ slot: string }>('vr-telemetry-partitions', {
  concurrency: 1,
  defaults: {
    attempts: 5,
    backoff: { type: 'exponential', delay: 60_000 },
    removeOnComplete: { count: 30 },
    removeOnFail: { age: 7 * 24 * 3600 },
  },
});
