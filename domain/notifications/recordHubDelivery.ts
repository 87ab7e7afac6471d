import type { HubDeliveryStatus } from '../../entities/notifications/hubDelivery';
import type { HubNotification } from '../../queues/notifications';
import type { Services } from '../services';
import { hubDeliveryStatus, upsertHubAttempt } from './store';

export interface HubAttempt {
  status: HubDeliveryStatus;
  /** Attempts made so far, this one included. */
  attempts: number;
  /** HTTP status the hub answered (null: unreachable, or skipped). */
  httpStatus?: number | null;
  error?: string | null;
}

/**
 * Records the outcome of an attempt to deliver a hub notification (one row per notification, updated at each
 * attempt) for platform administrators. `delivered` is final: a later attempt (a job run again after a stall,
 * or one in flight when the delivery was recorded) changes nothing in a delivered row. Best effort like the
 * notification itself: a failure to record is logged, never thrown, so it neither fails nor repeats the delivery.
 */
export async function recordHubDelivery(services: Services, note: HubNotification, attempt: HubAttempt): Promise<void> {
  const deliveredAt = attempt.status === 'delivered' ? new Date() : null;
  try {
    await upsertHubAttempt(services.orm.em.fork(), {
      id: note.id,
      tenantId: note.tenantId,
      module: note.module,
      event: note.event,
      status: attempt.status,
      attempts: attempt.attempts,
      httpStatus: attempt.httpStatus ?? null,
      error: attempt.error?.slice(0, 1000) ?? null,
      deliveredAt,
    });
  } catch (err) {
    services.logger.warn(
      { err: (err as Error).message, notificationId: note.id, status: attempt.status },
      'hub delivery outcome not recorded',
    );
  }
}

/**
 * Whether the hub already received this notification (its row says delivered): a job run again after a stall
 * then POSTs nothing. When the row cannot be read it answers false (logged): the notification goes out again,
 * as it would have before, rather than be lost.
 */
export async function hubDeliveryDone(services: Services, id: string): Promise<boolean> {
  try {
    return (await hubDeliveryStatus(services.orm.em.fork(), id)) === 'delivered';
  } catch (err) {
    services.logger.warn({ err: (err as Error).message, notificationId: id }, 'hub delivery outcome not read');
    return false;
  }
}
