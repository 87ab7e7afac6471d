import type { Services } from '../../../services';
import { calendarSyncQueue } from '../../../../queues/booking';
import { dueConnections } from '../store/connections';
import { syncJobId } from './connections';

/** How many connections one clock pass offers at most (the rest wait for the next pass). */
const PER_PASS = 5000;

/**
 * The clock's pass: a sync for every connection of every organisation due (not synced for CALENDAR_SYNC_MINUTES;
 * one failing in a row waits longer each time), its job id naming the pass's slot so a replayed pass adds none.
 */
export async function offerDueSyncs(services: Services, slot: string, now = new Date()): Promise<number> {
  const due = await dueConnections(services.orm.em.fork(), now, services.config.CALENDAR_SYNC_MINUTES, PER_PASS);
  if (!due.length) return 0;
  await services.queues.addBulk(
    calendarSyncQueue,
    due.map((c) => ({
      payload: { tenantId: c.tenant_id, connectionId: c.id },
      options: { jobId: syncJobId(c.id, slot) },
    })),
  );
  return due.length;
}
