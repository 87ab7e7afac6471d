import { UnrecoverableError } from 'bullmq';
import { hubSecret } from '../../domain/notifications/notify';
import { hubDeliveryDone, recordHubDelivery } from '../../domain/notifications/recordHubDelivery';
import { HubClient, HubError } from '../../lib/hub';
import { hubNotificationsQueue } from '../../queues/notifications';
import { defineProcessor } from '../define';

/**
 * POSTs one notification to <HUB_URL>/<module>/notify, signed with the module's secret. Retried briefly on
 * network errors, 5xx, 408 and 429 (the queue's three attempts), then dropped: the hub falls back to polling.
 * Other 4xx answers and redirects (never followed: the secret goes to HUB_URL only) are final at once. A
 * module whose secret was removed since the enqueue is skipped. A notification already delivered (the job runs
 * again after a stall) is not POSTed again. Every attempt's outcome is recorded in hub_deliveries (delivered,
 * retrying, failed, skipped; delivered is final), which platform administrators read at GET
 * /admin/deliveries/hub; failed jobs also stay in the queue dashboard.
 */
export const hubNotificationsProcessor = defineProcessor(hubNotificationsQueue, {
  async perform(payload, { services, job }) {
    if (await hubDeliveryDone(services, payload.id)) return { alreadyDelivered: true };
    const attempts = job.attemptsMade + 1;
    const secret = hubSecret(services.config, payload.module);
    if (!secret) {
      await recordHubDelivery(services, payload, { status: 'skipped', attempts });
      return { skipped: true };
    }
    try {
      await new HubClient(services.config.HUB_URL).notify(payload.module, secret, payload);
    } catch (err) {
      const permanent = err instanceof HubError && err.permanent;
      const final = permanent || attempts >= (job.opts.attempts ?? 1);
      await recordHubDelivery(services, payload, {
        status: final ? 'failed' : 'retrying',
        attempts,
        httpStatus: err instanceof HubError && err.status ? err.status : null,
        error: (err as Error).message,
      });
      if (permanent) throw new UnrecoverableError((err as Error).message);
      throw err;
    }
    await recordHubDelivery(services, payload, { status: 'delivered', attempts });
    return { delivered: true };
  },
});
