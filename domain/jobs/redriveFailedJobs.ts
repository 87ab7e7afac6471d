import { allQueues } from '../../queues';
import type { Services } from '../services';
import { failedThroughNoFault } from './redriveJob';

/** Failed jobs looked at per queue and run, newest first. */
const BATCH = 500;

/**
 * Work a 202 accepted whose only record is its job (telemetry batches, quota usage: queues defined with
 * `acceptedInRedis`) is lost when the job fails. The ones that failed through no fault of their own (stalled past
 * a limit: workers of an older release; a dependency timing out under load) are retried with their attempts
 * reset; the others stay failed, in the dashboard. Returns how many were retried.
 */
export async function redriveFailedJobs(services: Services): Promise<number> {
  let retried = 0;
  for (const def of allQueues.filter((q) => q.acceptedInRedis)) {
    const failed = (await services.queues.get(def).getJobs(['failed'], 0, BATCH - 1)).filter(failedThroughNoFault);
    for (const job of failed) {
      await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true }).then(
        () => retried++,
        (err: Error) =>
          services.logger.debug({ queue: def.name, jobId: job.id, err: err.message }, 'job retried meanwhile'),
      );
    }
    if (failed.length)
      services.logger.warn(
        { queue: def.name, jobs: failed.length },
        'failed jobs of accepted work retried (they failed through no fault of their own)',
      );
  }
  return retried;
}
