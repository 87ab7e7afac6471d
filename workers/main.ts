import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Services } from '../domain/services';
import { runProcess } from '../bin/process';
import { bullConnection } from '../lib/redis';
import { allQueues } from '../queues';
import type { Processor } from './define';
import { allProcessors } from './index';
import { OutageGate } from './outage';

export interface WorkerPool {
  workers: Worker[];
  /** Stops taking jobs, waits for the running ones to finish, closes the connections. */
  close(): Promise<void>;
}

/**
 * How often a job may stall (its lock lost: the process died in it, or its event loop stood still past the lock)
 * before it fails for good, as BullMQ's default. BullMQ's own limit would fail it without running the processor,
 * so without its onFailed hook (an import left 'running', a mail 'queued'); this one fails it inside perform.
 */
export const MAX_STALLS = 1;

/** Whether a failure is the job's last: unrecoverable, or its attempts (this one counted in `attempts`) used up. */
const isFinal = (job: Job, err: unknown, attempts: number) => err instanceof UnrecoverableError || attempts >= (job.opts.attempts ?? 1);

/** Fail fast on wiring: every queue has exactly one processor and every processor a queue. */
export function checkWiring(queues = allQueues, processors = allProcessors): void {
  const names = queues.map((q) => q.name);
  const handled = processors.map((p) => p.queue.name);
  const missing = names.filter((n) => !handled.includes(n));
  const duplicate = handled.filter((n, i) => handled.indexOf(n) !== i);
  const orphan = handled.filter((n) => !names.includes(n));
  if (missing.length || duplicate.length || orphan.length) {
    throw new Error(`Queue wiring is wrong: without processor [${missing}], several processors [${duplicate}], processor without queue [${orphan}]`);
  }
}

/**
 * Starts one BullMQ worker per queue (or only `only`), each running its processor behind the process's
 * OutageGate: a job that fails while PostgreSQL or Redis is down goes back to its queue without spending an
 * attempt, and the workers pause until the dependency answers (workers/outage.ts). Workers take jobs again
 * within a second or two of Redis returning (run-retry delay and reconnects of a second, not BullMQ's 15-20 s).
 */
export function startWorkers(services: Services, only?: string[]): WorkerPool {
  checkWiring();
  const { config, logger, metrics } = services;
  const outage = new OutageGate(
    [
      { name: 'postgresql', check: () => services.orm.em.getConnection().execute('select 1') },
      { name: 'redis', check: () => services.redis.ping() },
    ],
    logger,
  );
  const workers = allProcessors
    .filter((p) => !only || only.includes(p.queue.name))
    .map((processor: Processor<never>) => {
      const queue = processor.queue.name;
      const deferred = () => {
        metrics.jobs.inc({ queue, outcome: 'deferred' });
        // BullMQ's manual rate limit: the job returns to the head of the waiting list, attemptsMade unchanged.
        return Worker.RateLimitError();
      };
      const perform = async (job: Job) => {
        const ctx = { job: job as Job<never>, services };
        try {
          // As BullMQ, a scheduler's (repeatable) job is not failed for stalling.
          if (job.stalledCounter > MAX_STALLS && !job.repeatJobKey) throw new UnrecoverableError('job stalled more than allowable limit');
          return await processor.perform(job.data as never, ctx);
        } catch (err) {
          if (!(err instanceof UnrecoverableError) && (await outage.explains())) throw deferred();
          // The last attempt's hook runs before BullMQ records the failure, so a job that shows failed has had
          // its hook (a mail's outbox row, a delivery's outcome). A crash in between leaves the job active: it
          // stalls, runs again, and fails again (hooks are idempotent, like perform).
          if (processor.onFailed && isFinal(job, err, job.attemptsMade + 1)) {
            try {
              await processor.onFailed(job.data as never, err as Error, ctx);
            } catch (hookError) {
              if (await outage.explains()) throw deferred();
              logger.error({ err: hookError, queue, jobId: job.id }, 'onFailed hook failed');
            }
          }
          throw err;
        }
      };
      const worker = new Worker(queue, perform, {
        connection: bullConnection(config),
        prefix: services.queues.prefix,
        concurrency: processor.queue.concurrency ?? config.WORKER_CONCURRENCY,
        runRetryDelay: 1000,
        // Out of reach: MAX_STALLS applies in perform, where the hook runs.
        maxStalledCount: Number.MAX_SAFE_INTEGER,
      });
      outage.attach(worker);
      worker.on('completed', () => metrics.jobs.inc({ queue, outcome: 'completed' }));
      worker.on('failed', (job, err) => {
        if (!job) return;
        const final = isFinal(job, err, job.attemptsMade);
        metrics.jobs.inc({ queue, outcome: final ? 'failed' : 'retried' });
        logger[final ? 'error' : 'warn']({ queue, jobId: job.id, attempt: job.attemptsMade, err: err.message }, final ? 'job failed for good' : 'job failed, will retry');
      });
      // A worker retries its connection every second in an outage: one line every 30 s is enough.
      let loggedAt = 0;
      worker.on('error', (err) => {
        if (Date.now() - loggedAt < 30_000) return;
        loggedAt = Date.now();
        logger.warn({ queue, err: err.message }, 'worker error');
      });
      return worker;
    });
  return {
    workers,
    async close() {
      outage.stop();
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}

if (require.main === module) {
  void (async () => {
    await runProcess('worker', async (services) => {
      const pool = startWorkers(services);
      services.logger.info(`worker running ${pool.workers.length} queues`);
      return () => pool.close();
    });
  })();
}
