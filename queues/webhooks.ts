import { defineQueue } from './define';

/**
 * One attempt of a webhook delivery (domain/webhooks/deliverWebhook.ts). The job id names the delivery and the
 * attempt (`webhook.<deliveryId>.<attempt>`), so the fan-out, the retry and the reconciliation offering the same
 * attempt make one job. HTTP failures are not job failures: the delivery row holds its retries (the next attempt
 * is another job, delayed); BullMQ's attempts only cover the worker's own faults. Network-bound: many at once.
 */
export const webhookDeliveriesQueue = defineQueue<{ tenantId: string; deliveryId: string; attempt: number }>(
  'webhook-deliveries',
  {
    concurrency: 32,
    defaults: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 3600, count: 10000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    },
  },
);

export const webhookJobId = (deliveryId: string, attempt: number): string => `webhook.${deliveryId}.${attempt}`;

/** The clock's nightly prune of the webhook log past WEBHOOK_LOG_RETENTION_DAYS (domain/webhooks/pruneWebhookLog.ts). */
export const webhookLogPruneQueue = defineQueue<{ slot: string }>('webhook-log-prune', {
  concurrency: 1,
  defaults: { attempts: 3, removeOnComplete: { count: 30 }, removeOnFail: { age: 7 * 24 * 3600 } },
});
