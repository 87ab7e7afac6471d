import type { NotifyingModule } from '../domain/notifications/events';
import { defineQueue } from './define';

/**
 * One notification to the real-time hub: exactly the body POSTed to <HUB_URL>/<module>/notify (the envelope
 * of domain/notifications/events.ts), the module's subject fields (vr: roomId, sessionId, userId) included.
 */
export interface HubEnvelope {
  id: string;
  module: NotifyingModule;
  event: string;
  occurredAt: string;
  tenantId: string;
  data: Record<string, unknown>;
}
export type HubNotification = HubEnvelope & Record<string, unknown>;

/** The clock's nightly prune of delivery records past DELIVERY_RETENTION_DAYS (hub attempts, processed GitHub deliveries). */
export const deliveriesPruneQueue = defineQueue<{ slot: string }>('deliveries-prune', {
  concurrency: 1,
  defaults: { attempts: 3, removeOnComplete: { count: 30 }, removeOnFail: { age: 7 * 24 * 3600 } },
});

/**
 * Best-effort hub notifications of every module: three quick attempts, then dropped. A dropped one stays a week
 * in the queue dashboard (failed), and its outcome in hub_deliveries (GET /admin/deliveries/hub).
 */
export const hubNotificationsQueue = defineQueue<HubNotification>('hub-notifications', {
  defaults: {
    attempts: 3,
    backoff: { type: 'exponential', delay: 500 },
    removeOnComplete: { age: 600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
  },
});
