import { newId } from '../../entities/base';
import { WebhookDelivery } from '../../entities/webhooks/webhook';
import { webhookDeliveriesQueue, webhookJobId } from '../../queues/webhooks';
import type { Services } from '../services';
import { enabledEndpointsOf, eventsToFanOut, markFannedOut } from './store';

const BATCH = 1000;

/**
 * Turns committed events into deliveries: one per endpoint of the organisation enabled and subscribed at that
 * moment, then enqueues their first attempt. One fan-out runs at a time across the dynos (a transaction-scoped
 * advisory lock; another caller returns at once, the running one loops until nothing is left), so deliveries are
 * created in event order. An event no endpoint wants is deleted. When the enqueue fails (Redis away) the rows are
 * committed already: the reconciliation offers their attempt again (redriveWebhooks). Returns the deliveries made.
 */
export async function fanOutEvents(services: Services): Promise<number> {
  let made = 0;
  for (;;) {
    const batch = await services.orm.em.fork().transactional(async (em) => {
      const [{ locked }] = await em.execute<{ locked: boolean }[]>(
        "select pg_try_advisory_xact_lock(hashtext('webhook-fan-out')) as locked",
      );
      if (!locked) return null;
      const events = await eventsToFanOut(em, BATCH);
      if (!events.length) return { deliveries: [] as WebhookDelivery[], events: 0 };
      const endpoints = await enabledEndpointsOf(em, [...new Set(events.map((e) => e.tenantId))]);
      const deliveries: WebhookDelivery[] = [];
      const kept: string[] = [];
      const dropped: string[] = [];
      const now = new Date();
      for (const event of events) {
        const targets = endpoints.filter(
          (e) => e.tenantId === event.tenantId && (!e.eventTypes.length || e.eventTypes.includes(event.type)),
        );
        (targets.length ? kept : dropped).push(event.id);
        for (const endpoint of targets)
          deliveries.push({
            id: newId(),
            tenantId: event.tenantId,
            createdAt: now,
            endpointId: endpoint.id,
            eventId: event.id,
            eventType: event.type,
            resource: event.resource,
            status: 'pending',
            attempts: 0,
            nextAttemptAt: now,
            lastAttemptAt: null,
            lastHttpStatus: null,
            deliveredAt: null,
          } as WebhookDelivery);
      }
      if (deliveries.length) await em.insertMany(WebhookDelivery, deliveries);
      await markFannedOut(em, kept, dropped, now);
      return { deliveries, events: events.length };
    });
    if (!batch) return made;
    await offerAttempts(
      services,
      batch.deliveries.map((d) => ({ tenantId: d.tenantId, deliveryId: d.id, attempt: 1 })),
    );
    made += batch.deliveries.length;
    if (batch.events < BATCH) return made;
  }
}

/** Enqueues attempts whose rows are committed; a failure is left to the reconciliation (logged). */
export async function offerAttempts(
  services: Services,
  attempts: { tenantId: string; deliveryId: string; attempt: number; delayMs?: number }[],
): Promise<void> {
  if (!attempts.length) return;
  try {
    await services.queues.addBulk(
      webhookDeliveriesQueue,
      attempts.map(({ delayMs, ...payload }) => ({
        payload,
        options: { jobId: webhookJobId(payload.deliveryId, payload.attempt), delay: delayMs ?? 0 },
      })),
    );
  } catch (err) {
    services.logger.warn(
      { err: (err as Error).message, deliveries: attempts.length },
      'webhook attempts left to the reconciliation',
    );
  }
}
