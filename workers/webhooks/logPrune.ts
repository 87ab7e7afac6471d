import { pruneWebhookLog } from '../../domain/webhooks/pruneWebhookLog';
import { webhookLogPruneQueue } from '../../queues/webhooks';
import { defineProcessor } from '../define';

/** Deletes the webhook log past WEBHOOK_LOG_RETENTION_DAYS, never a pending delivery (domain/webhooks/pruneWebhookLog.ts). */
export const webhookLogPruneProcessor = defineProcessor(webhookLogPruneQueue, {
  perform: (_payload, { services }) => pruneWebhookLog(services),
});
