import { UnrecoverableError } from 'bullmq';
import { hubEnabled } from '../../domain/vr/hub';
import { HubClient, HubError } from '../../lib/hub';
import { hubNotificationsQueue } from '../../queues/vr';
import { defineProcessor } from '../define';

/**
 * POSTs one notification to the hub. Retried briefly on network errors, 5xx, 408 and 429 (the queue's
 * three attempts), then dropped: the hub falls back to polling. Other 4xx answers are final at once.
 */
export const hubNotificationsProcessor = defineProcessor(hubNotificationsQueue, {
  async perform(payload, { services }) {
    if (!hubEnabled(services)) return { skipped: true };
    try {
      await new HubClient(services.config.HUB_URL).notify('vr', services.config.VR_WEBHOOK_SECRET, payload);
    } catch (err) {
      if (err instanceof HubError && err.permanent) throw new UnrecoverableError(err.message);
      throw err;
    }
    return { delivered: true };
  },
});
