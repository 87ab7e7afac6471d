import { Worker, type Job } from 'bullmq';
import type { Services } from '../domain/services';
import { runProcess } from '../bin/process';
import { bullConnection } from '../lib/redis';
import { allQueues } from '../queues';
import type { Processor } from './define';
import { allProcessors } from './index';

export interface WorkerPool {
  workers: Worker[];
  /** Stops taking jobs, waits for the running ones to finish, closes the connections. */
  close(): Promise<void>;
}

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

/** Starts one BullMQ worker per queue (or only `only`), each running its processor. */
export function startWorkers(services: Services, only?: string[]): WorkerPool {
  checkWiring();
  const { config, logger, metrics } = services;
  const workers = allProcessors
    .filter((p) => !only || only.includes(p.queue.name))
    .map((processor: Processor<never>) => {
      const queue = processor.queue.name;
      const worker = new Worker(queue, (job: Job) => processor.perform(job.data as never, { job: job as Job<never>, services }), {
        connection: bullConnection(config),
        prefix: services.queues.prefix,
        concurrency: processor.queue.concurrency ?? config.WORKER_CONCURRENCY,
      });
      worker.on('completed', () => metrics.jobs.inc({ queue, outcome: 'completed' }));
      worker.on('failed', (job, err) => {
        if (!job) return;
        const final = job.attemptsMade >= (job.opts.attempts ?? 1);
        metrics.jobs.inc({ queue, outcome: final ? 'failed' : 'retried' });
        logger[final ? 'error' : 'warn']({ queue, jobId: job.id, attempt: job.attemptsMade, err: err.message }, final ? 'job failed for good' : 'job failed, will retry');
        if (final && processor.onFailed) void processor.onFailed(job.data as never, err, { job: job as Job<never>, services }).catch((e: unknown) => logger.error({ err: e, queue }, 'onFailed hook failed'));
      });
      worker.on('error', (err) => logger.warn({ queue, err: err.message }, 'worker error'));
      return worker;
    });
  return {
    workers,
    async close() {
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
