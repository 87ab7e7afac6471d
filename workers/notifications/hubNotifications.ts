import { UnrecoverableError } from 'bullmq';
import { hubSecret } from '../../domain/notifications/notify';
import { HubClient, HubError } from '../../lib/hub';
import { hubNotificationsQueue } from '../../queues/notifications';
import { defineProcessor } from '../define';

/**
 * POSTs one notification to <HUB_URL>/<module>/notify, signed with the module's secret. Retried briefly on
 * network errors, 5xx, 408 and 429 (the queue's three attempts), then dropped: the hub falls back to polling.
 * Other 4xx answers are final at once. A module whose secret was removed since the enqueue is skipped.
 */
export const hubNotificationsProcessor = defineProcessor(hubNotificationsQueue, {
  async perform(payload, { services }) {
    const secret = hubSecret(services.config, payload.module);
    if (!secret) return { skipped: true };
    try {
      await new HubClient(services.config.HUB_URL).notify(payload.module, secret, payload);
    } catch (err) {
      if (err instanceof HubError && err.permanent) throw new UnrecoverableError(err.message);
      throw err;
    }
    return { delivered: true };
  },
});
