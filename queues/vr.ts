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

export const hubEvents = ['room.opened', 'room.closed', 'session.started', 'session.ended', 'participant.arrived', 'participant.departed'] as const;
export type HubEvent = (typeof hubEvents)[number];

/** The body POSTed to <HUB_URL>/vr/notify; `id` lets the hub drop a redelivered notification. */
export interface HubNotificationJob {
  id: string;
  event: HubEvent;
  occurredAt: string;
  tenantId: string;
  roomId: string;
  sessionId: string | null;
  userId: string | null;
  data: Record<string, unknown>;
}

/**
 * Telemetry is the module's hot queue: many small jobs, applied in groups by the worker (see
 * workers/vr/telemetry.ts), so its concurrency is the size of a group rather than parallel work. A completed
 * job is deleted at once (less Redis work per job): idempotency rests on Redis keys and the database.
 */
export const telemetryQueue = defineQueue<TelemetryJob>('vr-telemetry', {
  concurrency: 64,
  defaults: { attempts: 6, backoff: { type: 'exponential', delay: 500 }, removeOnComplete: true },
});

/** Best-effort hub notifications: three quick attempts, then dropped (kept an hour in the dashboard). */
export const hubNotificationsQueue = defineQueue<HubNotificationJob>('hub-notifications', {
  defaults: { attempts: 3, backoff: { type: 'exponential', delay: 500 }, removeOnComplete: { age: 600, count: 1000 }, removeOnFail: { age: 3600, count: 1000 } },
});

/** The clock's presence sweep: finds expired presence and records the departures. One at a time. */
export const presenceSweepQueue = defineQueue<Record<string, never>>('vr-presence-sweep', {
  concurrency: 1,
  defaults: { attempts: 3, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: { count: 100 }, removeOnFail: { age: 24 * 3600 } },
});
