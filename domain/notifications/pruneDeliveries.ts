import type { Services } from '../services';
import { deleteOlderBatch } from './store';

const BATCH = 5000;

/**
 * The lowest UUIDv7 of a moment: every id generated before it sorts below (the first 48 bits are the Unix time
 * in milliseconds), so "older than" is a primary-key range, not a scan.
 */
export function firstIdAt(at: Date): string {
  const hex = at.getTime().toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

/**
 * Deletes what no one needs after DELIVERY_RETENTION_DAYS: hub notification attempts (GET /admin/deliveries/hub)
 * and GitHub deliveries once processed (their payloads are the bulk; an unprocessed one is kept for its retry).
 * In batches, so a large backlog never holds long locks. Returns the rows deleted per table.
 */
export async function pruneDeliveries(services: Services, now = new Date()): Promise<{ hub: number; github: number }> {
  const before = firstIdAt(new Date(now.getTime() - services.config.DELIVERY_RETENTION_DAYS * 86_400_000));
  const em = services.orm.em.fork();
  const prune = async (table: 'hub_deliveries' | 'work_github_deliveries', condition: string) => {
    let total = 0;
    for (;;) {
      const n = await deleteOlderBatch(em, table, condition, before, BATCH);
      total += n;
      if (n < BATCH) return total;
    }
  };
  // Delivery records are the platform's (administrators read them): this job crosses tenants by design.
  const hub = await prune('hub_deliveries', '');
  const github = await prune('work_github_deliveries', 'and processed_at is not null');
  return { hub, github };
}
