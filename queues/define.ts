import type { JobsOptions } from 'bullmq';

/**
 * A queue is a small typed contract: its name, the payload of its jobs and their default options.
 * The enqueue helper (Queues.add) and the processor (workers/) are both typed by the definition.
 *
 * Retry semantics every queue inherits: `attempts` count the job's OWN failures only. A job that fails while
 * PostgreSQL or Redis is down is not charged an attempt: it waits for the dependency, however long the
 * outage, and runs again once it answers (workers/outage.ts). Nor is a job whose worker died in it: it comes back
 * however often that happens (workers/main.ts, STALL_BACKOFF). So pick attempts and backoff for the job's own
 * faults (a bad payload, a third party refusing it), not for outages or crashes.
 */
export interface QueueDefinition<Payload> {
  readonly name: string;
  readonly defaults: JobsOptions;
  /** Jobs a worker dyno runs at once for this queue (defaults to WORKER_CONCURRENCY). */
  readonly concurrency?: number;
  /**
   * The job is the only record of work a client was answered 2xx for (no row in PostgreSQL holds it): the
   * reconciliation retries such a job when it failed through no fault of its own (domain/jobs/redriveFailedJobs.ts).
   */
  readonly acceptedInRedis?: boolean;
  /** Phantom field carrying the payload type. */
  readonly payload?: Payload;
}

/**
 * Defaults for every job: retried with exponential backoff (outages excepted, see above); completed jobs
 * pruned after a day; a job that exhausted its attempts kept two weeks, visible in the Bull dashboard.
 */
export const defaultJobOptions: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 5000 },
  removeOnFail: { age: 14 * 24 * 3600 },
};

export function defineQueue<Payload>(
  name: string,
  options: { defaults?: JobsOptions; concurrency?: number; acceptedInRedis?: boolean } = {},
): QueueDefinition<Payload> {
  return {
    name,
    defaults: { ...defaultJobOptions, ...options.defaults },
    concurrency: options.concurrency,
    acceptedInRedis: options.acceptedInRedis,
  };
}
