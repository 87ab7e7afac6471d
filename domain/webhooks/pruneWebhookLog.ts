import { firstIdAt } from '../notifications/pruneDeliveries';
import type { Services } from '../services';
import { deleteOrphanEvents, deleteSettledDeliveries } from './store';

const BATCH = 2000;

/**
 * The webhook log's retention, nightly: settled deliveries (delivered or failed) whose last attempt is older than
 * WEBHOOK_LOG_RETENTION_DAYS go with their attempts, then the events none of whose deliveries is left (the
 * payloads). Pending deliveries and their events are never touched, however old: their retries still need them.
 * In batches of their own statements, so a large backlog never holds long locks. Crosses organisations by design
 * (one job for all). Returns the rows deleted.
 */
export async function pruneWebhookLog(
  services: Services,
  now = new Date(),
  batch = BATCH,
): Promise<{ deliveries: number; events: number }> {
  const before = new Date(now.getTime() - services.config.WEBHOOK_LOG_RETENTION_DAYS * 86_400_000);
  const beforeId = firstIdAt(before);
  const em = services.orm.em.fork();
  const drain = async (step: () => Promise<number>) => {
    let total = 0;
    for (;;) {
      const n = await step();
      total += n;
      if (n < batch) return total;
    }
  };
  const deliveries = await drain(() => deleteSettledDeliveries(em, beforeId, before, batch));
  const events = await drain(() => deleteOrphanEvents(em, beforeId, batch));
  return { deliveries, events };
}
