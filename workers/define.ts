import type { Job } from 'bullmq';
import type { QueueDefinition } from '../queues/define';
import type { Services } from '../domain/services';

export interface JobContext<P> {
  job: Job<P>;
  services: Services;
}

/**
 * The code that performs the jobs of one queue. `perform` must be idempotent (a job may run again after a
 * crash or an outage: guard effects with unique keys) and throws to fail the attempt; an UnrecoverableError
 * fails the job at once. Failures during a PostgreSQL or Redis outage need no handling here: the worker
 * puts the job back without spending an attempt and waits for the dependency (workers/outage.ts).
 * A job whose worker died in it runs again (workers/main.ts, STALL_BACKOFF), so an external effect (a mail, a
 * submission to a platform) is recorded in PostgreSQL before perform returns, where the retry finds it.
 * `onFailed` runs once a job has exhausted its attempts (stalling spends none), inside the last attempt
 * (job.attemptsMade counts the attempts before it), before BullMQ records the failure; like perform it must be
 * idempotent.
 */
export interface Processor<P> {
  readonly queue: QueueDefinition<P>;
  perform(payload: P, ctx: JobContext<P>): Promise<unknown>;
  onFailed?(payload: P, error: Error, ctx: JobContext<P>): Promise<void>;
}

export function defineProcessor<P>(queue: QueueDefinition<P>, processor: Omit<Processor<P>, 'queue'>): Processor<P> {
  return { queue, ...processor };
}
