import { newId } from '../../entities/base';
import { hubNotificationsQueue, type HubEvent, type HubNotificationJob } from '../../queues/vr';
import type { Services } from '../services';

export interface HubNote {
  event: HubEvent;
  tenantId: string;
  roomId: string;
  sessionId?: string | null;
  userId?: string | null;
  data?: Record<string, unknown>;
}

/** Notifications go out only when the hub and its secret are both configured. */
export const hubEnabled = (services: Pick<Services, 'config'>) => !!(services.config.HUB_URL && services.config.VR_WEBHOOK_SECRET);

/**
 * Tells the real-time hub what happened, best-effort: call it after the change committed. The jobs carry
 * the notification (the worker only POSTs it). Without a hub nothing is enqueued; a failure to enqueue is
 * logged, never surfaced: the hub falls back to polling.
 */
export async function notifyHub(services: Services, notes: HubNote[]): Promise<void> {
  if (!notes.length || !hubEnabled(services)) return;
  const occurredAt = new Date().toISOString();
  const jobs = notes.map((n): { payload: HubNotificationJob; options: { jobId: string } } => {
    const id = newId();
    return {
      payload: { id, event: n.event, occurredAt, tenantId: n.tenantId, roomId: n.roomId, sessionId: n.sessionId ?? null, userId: n.userId ?? null, data: n.data ?? {} },
      options: { jobId: id },
    };
  });
  try {
    await services.queues.addBulk(hubNotificationsQueue, jobs);
  } catch (err) {
    services.logger.warn({ err: (err as Error).message, events: notes.map((n) => n.event) }, 'hub notifications not enqueued');
  }
}
