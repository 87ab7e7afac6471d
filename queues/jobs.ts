import { defineQueue } from './define';

/** The clock's relay of staged jobs left behind by a crash or a Redis outage (domain/jobs/relayStagedJobs.ts). */
export const stagedJobsRelayQueue = defineQueue<{ slot: string }>('staged-jobs-relay', {
  concurrency: 1,
  defaults: { removeOnComplete: { count: 60 }, removeOnFail: { age: 7 * 24 * 3600 } },
});
