import { StagedJob } from '../../entities/jobs/stagedJob';
import type { Em } from '../../lib/db';
import type { QueueDefinition } from '../../queues/define';
import type { Services } from '../services';

/**
 * Stages a job in `em`'s unit of work, so it commits with the rows it works on (the transactional outbox:
 * entities/jobs/stagedJob.ts). Once the transaction has committed, hand it to enqueueStaged. `jobId` makes
 * the job idempotent: the relay may enqueue it again after the writer did.
 */
export function stageJob<P>(em: Em, def: QueueDefinition<P>, payload: P, jobId: string): StagedJob {
  return em.create(StagedJob, { queue: def.name, jobId, payload: payload as Record<string, unknown> });
}

/**
 * Enqueues committed staged jobs and deletes their rows. It never fails the caller: the commit already holds
 * the jobs, so when Redis does not answer they are left to the relay (within a minute or two of its return)
 * and the caller's answer stands.
 */
export async function enqueueStaged(services: Services, staged: readonly StagedJob[]): Promise<void> {
  if (!staged.length) return;
  try {
    await services.queues.addStaged(staged);
    await services.orm.em.fork().nativeDelete(StagedJob, { id: { $in: staged.map((s) => s.id) } });
  } catch (err) {
    services.logger.warn(
      { err: (err as Error).message, jobs: staged.map((s) => s.jobId) },
      'staged jobs left to the relay',
    );
  }
}
