import { stripeEventsQueue } from '../../queues/billing';
import { RELAY_AFTER_MS } from '../jobs/relayStagedJobs';
import { failedThroughNoFault, redriveJob } from '../jobs/redriveJob';
import type { Services } from '../services';
import { stripeEventJobId } from './receiveStripeWebhook';
import { unprocessedStripeEvents } from './store';

const BATCH = 500;

/**
 * Stored Stripe events (answered 200) not applied yet, received between three days ago (Stripe's own redelivery
 * window) and RELAY_AFTER_MS ago: each gets a job that will run (domain/jobs/redriveJob.ts): one that never reached
 * Redis (the web died between the row and the enqueue) is added, one that failed through no fault of its own is
 * retried; one that failed on its own stays failed (Stripe's redelivery offers it again, receiveStripeWebhook).
 * Returns how many were offered again.
 */
export async function redriveStripeEvents(services: Services): Promise<number> {
  const ids = await unprocessedStripeEvents(services.orm.em.fork(), RELAY_AFTER_MS, BATCH);
  let offered = 0;
  for (const id of ids) {
    if (
      (await redriveJob(services, stripeEventsQueue, stripeEventJobId(id), { eventId: id }, failedThroughNoFault)) !==
      'live'
    )
      offered++;
  }
  return offered;
}
