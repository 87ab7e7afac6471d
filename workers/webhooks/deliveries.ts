import { DelayedError } from 'bullmq';
import { deliverWebhook } from '../../domain/webhooks/deliverWebhook';
import { webhookDeliveriesQueue } from '../../queues/webhooks';
import { defineProcessor } from '../define';

/**
 * One attempt of a customer's webhook delivery (domain/webhooks/deliverWebhook.ts). A wait (order per resource,
 * the organisation's rate, the endpoint's slots) moves the job back to delayed without spending an attempt.
 */
export const webhookDeliveriesProcessor = defineProcessor(webhookDeliveriesQueue, {
  async perform(payload, { services, job }) {
    const result = await deliverWebhook(services, payload);
    if ('waitMs' in result && job.token) {
      await job.moveToDelayed(Date.now() + result.waitMs, job.token);
      throw new DelayedError();
    }
    return result;
  },
});
