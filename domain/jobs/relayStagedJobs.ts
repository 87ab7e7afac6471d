import { LockMode } from '@mikro-orm/core';
import { StagedJob } from '../../entities/jobs/stagedJob';
import type { Services } from '../services';

/** A staged job younger than this is left to its writer, which enqueues it right after its commit. */
export const RELAY_AFTER_MS = 30_000;
const BATCH = 500;

/**
 * Enqueues the staged jobs their writers did not (a crash between commit and enqueue, Redis unreachable), in
 * batches locked with SKIP LOCKED so two relays never take the same rows, and deletes them in the same
 * transaction: a failed enqueue keeps them for the next run. A job naming a queue that no longer exists is
 * dropped with an error in the log. Returns how many jobs were enqueued.
 */
export async function relayStagedJobs(services: Services, olderThanMs = RELAY_AFTER_MS): Promise<number> {
  let relayed = 0;
  for (;;) {
    const taken = await services.orm.em.fork().transactional(async (em) => {
      const rows = await em.find(
        StagedJob,
        { createdAt: { $lt: new Date(Date.now() - olderThanMs) } },
        { orderBy: { createdAt: 'asc' }, limit: BATCH, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
      );
      const known = rows.filter((r) => services.queues.has(r.queue));
      if (known.length < rows.length)
        services.logger.error(
          { jobs: rows.filter((r) => !known.includes(r)).map((r) => `${r.queue}/${r.jobId}`) },
          'staged jobs of unknown queues dropped',
        );
      await services.queues.addStaged(known);
      if (rows.length) await em.nativeDelete(StagedJob, { id: { $in: rows.map((r) => r.id) } });
      relayed += known.length;
      return rows.length;
    });
    if (taken < BATCH) return relayed;
  }
}
