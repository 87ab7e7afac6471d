import { stripeEventsQueue } from '../../queues/billing';
import { RELAY_AFTER_MS } from '../jobs/relayStagedJobs';
import { failedThroughNoFault, redriveJob } from '../jobs/redriveJob';
import type { Services } from '../services';
import { stripeEventJobId } from './receiveStripeWebhook';

const BATCH = 500;

/**
 * Stored Stripe events (answered 200) not applied yet, received between three days ago (Stripe's own redelivery
 * window) and RELAY_AFTER_MS ago: each gets a job that will run (domain/jobs/redriveJob.ts): one that never reached
 * Redis (the web died between the row and the enqueue) is added, one that failed through no fault of its own is
 * retried; one that failed on its own stays failed (Stripe's redelivery offers it again, receiveStripeWebhook).
 * Returns how many were offered again.
 */
export async function redriveStripeEvents(services: Services): Promise<number> {
  const rows = await services.orm.em
    .fork()
    .execute<{ id: string }[]>(
      `select id from stripe_events where processed_at is null and received_at > now() - interval '3 days' and received_at < now() - ? * interval '1 millisecond' order by received_at limit ${BATCH}`,
      [RELAY_AFTER_MS],
    );
  let offered = 0;
  for (const { id } of rows) {
    if ((await redriveJob(services, stripeEventsQueue, stripeEventJobId(id), { eventId: id }, failedThroughNoFault)) !== 'live') offered++;
  }
  return offered;
}
