import { webhookDeliveriesQueue, webhookJobId } from '../../queues/webhooks';
import { failedThroughNoFault, redriveJob } from '../jobs/redriveJob';
import type { Services } from '../services';
import { fanOutEvents } from './fanOutEvents';
import { overdueDeliveries } from './store';

/** A pending attempt due longer ago than this without running is offered again. */
const OVERDUE_MS = 30_000;
const BATCH = 500;

/**
 * The webhooks' part of the clock's reconciliation: fans out committed events nobody fanned out (no worker was
 * listening), and gives every pending delivery whose attempt is overdue a job that will run (an enqueue lost to a
 * Redis outage, a job removed). Returns the deliveries offered.
 */
export async function redriveWebhooks(services: Services): Promise<number> {
  await fanOutEvents(services);
  const overdue = await overdueDeliveries(services.orm.em.fork(), new Date(Date.now() - OVERDUE_MS), BATCH);
  let offered = 0;
  for (const d of overdue) {
    const attempt = d.attempts + 1;
    const done = await redriveJob(
      services,
      webhookDeliveriesQueue,
      webhookJobId(d.id, attempt),
      { tenantId: d.tenantId, deliveryId: d.id, attempt },
      failedThroughNoFault,
    );
    if (done !== 'live') offered++;
  }
  return offered;
}
