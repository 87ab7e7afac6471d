import type { Job } from 'bullmq';
import { isDependencyDown } from '../../lib/dependencies';
import type { QueueDefinition } from '../../queues/define';
import type { Services } from '../services';

/** What redriveJob found and did: the job will run (`live`), or was added, retried or added again. */
export type Redriven = 'live' | 'added' | 'retried' | 'readded';

/** The reason BullMQ (and this suite's workers before stalls stopped being failures) gave a job failed for stalling. */
export const STALLED_REASON = 'job stalled more than allowable limit';

/**
 * Whether a failed job failed through no fault of its own: it stalled past a limit (a worker of an older release,
 * or BullMQ's own), or a dependency was too slow or cut while the worker's probe still saw it answer (a pool or
 * statement timeout under load, a connection reset). Running it again is the right answer to those.
 */
export const failedThroughNoFault = (job: Job): boolean =>
  job.failedReason === STALLED_REASON || isDependencyDown(new Error(job.failedReason ?? ''));

/**
 * Makes sure accepted work that is not applied has a job that will run, under its fixed job id:
 *  - waiting, delayed or running: nothing to do (`live`);
 *  - failed: retried with its attempts reset when `retryFailed` says so (`retried`), otherwise left failed (`live`:
 *    visible in the dashboard, its failure hook has run);
 *  - completed (the work is known not applied, so its job ended without it): removed and added again (`readded`);
 *  - missing (never enqueued: a crash between the commit and the enqueue; or removed): added (`added`).
 * A concurrent redrive of the same job makes retry/remove throw (the job is no longer in that state): it was offered
 * again anyway. Idempotent, like the jobs it offers.
 */
export async function redriveJob<P>(
  services: Services,
  def: QueueDefinition<P>,
  jobId: string,
  payload: P,
  retryFailed: (job: Job) => boolean,
): Promise<Redriven> {
  const job = await services.queues.get(def).getJob(jobId);
  const state = job ? await job.getState() : 'unknown';
  const settled = (err: Error) =>
    services.logger.debug({ queue: def.name, jobId, err: err.message }, 'job offered again meanwhile');
  if (job && state === 'failed') {
    if (!retryFailed(job)) return 'live';
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true }).catch(settled);
    return 'retried';
  }
  if (job && state === 'completed') {
    await job.remove().catch(settled);
    await services.queues.add(def, payload, { jobId });
    return 'readded';
  }
  if (job && state !== 'unknown') return 'live';
  // Adding under the same id is a no-op while a job of that id is kept.
  await services.queues.add(def, payload, { jobId });
  return 'added';
}
