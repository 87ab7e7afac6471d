import { newId } from '../../entities/base';
import { WebhookDelivery, WebhookEvent } from '../../entities/webhooks/webhook';
import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { resourceOf } from './eventTypes';
import { offerAttempts } from './fanOutEvents';
import { findEndpoint } from './store';

/** A `webhook.test` event to one endpoint only, delivered by the worker like any other (its log shows the outcome). */
export async function sendTestEvent(ctx: TenantContext, endpointId: string): Promise<WebhookDelivery> {
  const delivery = await ctx.em.transactional(async (em) => {
    const endpoint = await findEndpoint(em, endpointId);
    if (!endpoint) throw notFound('Webhook endpoint');
    const data = { endpointId, message: 'A test event from the platform suite' };
    const now = new Date();
    // Fanned out here (to this endpoint only), so the workers' fan-out leaves it alone.
    const event = em.create(WebhookEvent, {
      tenantId: ctx.tenantId,
      type: 'webhook.test',
      resource: `${resourceOf('webhook.test', data)}:${newId()}`,
      payload: data,
      fannedOutAt: now,
    });
    return em.create(WebhookDelivery, {
      tenantId: ctx.tenantId,
      endpointId,
      eventId: event.id,
      eventType: event.type,
      resource: event.resource,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
    });
  });
  await offerAttempts(ctx.services, [{ tenantId: ctx.tenantId, deliveryId: delivery.id, attempt: 1 }]);
  return delivery;
}
