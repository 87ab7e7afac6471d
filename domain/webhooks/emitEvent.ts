import { WebhookEvent } from '../../entities/webhooks/webhook';
import type { Em } from '../../lib/db';
import { resourceOf, type WebhookEventType, type WebhookPayloads } from './eventTypes';

/**
 * Records an event of the organisation for its webhook endpoints, in `em`'s unit of work: call it before the
 * flush or commit of the change, with the same EntityManager (the transaction's, inside `transactional`). The row
 * is the outbox: it commits with the change or not at all, and the workers fan it out to the endpoints subscribed
 * once committed (domain/webhooks/fanOutEvents.ts). Costs one insert; nothing is sent from the request.
 */
export function emitEvent<T extends WebhookEventType>(
  em: Em,
  tenantId: string,
  type: T,
  data: WebhookPayloads[T],
): void {
  em.create(WebhookEvent, {
    tenantId,
    type,
    resource: resourceOf(type, data),
    payload: data as unknown as Record<string, unknown>,
    fannedOutAt: null,
  });
}
