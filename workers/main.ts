import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Cluster } from 'ioredis';
import { servicesFor, type Services } from '../domain/services';
import { runProcess } from '../lib/process';
import { bullConnection, pingRedis, redisWatch, redisWatchUrl } from '../lib/redis';
import { allQueues } from '../queues';
import type { Processor } from './define';
import { allProcessors } from './index';
import { OutageGate } from './outage';
import { startWebhookDispatcher } from './webhooks/dispatcher';
import { webhookDeliveriesQueue } from '../queues/webhooks';

export interface WorkerPool {
  workers: Worker[];
  /** Stops taking jobs, waits for the running ones to finish, closes the connections. */
  close(): Promise<void>;
}

/**
 * A job whose worker died in it (or lost its lock) comes back, however often: a crash loop (a bad deploy, an OOM
 * under load) must not fail accepted work, so stalling is never a failure and spends no attempt. Its first return
 * runs at once; each later one waits twice as long as the one before, from STALL_BACKOFF.firstMs up to
 * STALL_BACKOFF.maxMs, so a job that itself kills its worker (a poison pill) costs a dyno restart a minute, not a
 * crash loop. Logged (warn) at every return with the count.
 */
export const STALL_BACKOFF = { firstMs: 1000, maxMs: 60_000 };

/** How long a job that stalled `stalls` times waits before it runs again. */
export const stallDelayMs = (stalls: number): number =>
  stalls <= 1 ? 0 : Math.min(STALL_BACKOFF.firstMs * 2 ** (stalls - 2), STALL_BACKOFF.maxMs);

/** Whether a failure is the job's last: unrecoverable, or its attempts (this one counted in `attempts`) used up. */
const isFinal = (job: Job, err: unknown, attempts: number) =>
  err instanceof UnrecoverableError || attempts >= (job.opts.attempts ?? 1);

/** Fail fast on wiring: every queue has exactly one processor and every processor a queue. */
export function checkWiring(queues = allQueues, processors = allProcessors): void {
  const names = queues.map((q) => q.name);
  const handled = processors.map((p) => p.queue.name);
  const missing = names.filter((n) => !handled.includes(n));
  const duplicate = handled.filter((n, i) => handled.indexOf(n) !== i);
  const orphan = handled.filter((n) => !names.includes(n));
  if (missing.length || duplicate.length || orphan.length) {
    throw new Error(
      `Queue wiring is wrong: without processor [${missing}], several processors [${duplicate}], processor without queue [${orphan}]`,
    );
  }
}

/**
 * Starts one BullMQ worker per queue (or only `only`), each running its processor behind the process's
 * OutageGate: a job that fails while PostgreSQL or Redis is down goes back to its queue without spending an
 * attempt, and the workers pause until the dependency answers (workers/outage.ts). Workers take jobs again
 * within a second or two of Redis returning (run-retry delay and reconnects of a second, not BullMQ's 15-20 s).
 *
 * A job's lock lasts JOB_LOCK_MS and is renewed every quarter of it, and every quarter the stalled check moves
 * the jobs whose lock expired back to their queue: a dead worker's jobs run again elsewhere within about 1.25x
 * JOB_LOCK_MS (BullMQ's defaults took 30 to 67 s), while an event loop blocked up to three quarters of it keeps
 * its locks. Returning jobs back off as stallDelayMs says.
 */
export function startWorkers(services: Services, only?: string[]): WorkerPool {
  checkWiring();
  const { config, logger, metrics } = services;
  const redis = redisWatch(logger, redisWatchUrl(config));
  const outage = new OutageGate(
    [
      { name: 'postgresql', check: () => services.orm.em.getConnection().execute('select 1') },
      { name: 'redis', check: () => pingRedis(services.redis) },
    ],
    logger,
  );
  // On a cluster each worker's Cluster client is ours (BullMQ leaves a caller's client open): closed after the workers.
  const owned: Cluster[] = [];
  const workers = allProcessors
    .filter((p) => !only || only.includes(p.queue.name))
    .map((processor: Processor<never>) => {
      const queue = processor.queue.name;
      const deferred = () => {
        metrics.jobs.inc({ queue, outcome: 'deferred' });
        // BullMQ's manual rate limit: the job returns to the head of the waiting list, attemptsMade unchanged.
        return Worker.RateLimitError();
      };
      const perform = async (job: Job, token?: string) => {
        const ctx = { job: job as Job<never>, services };
        try {
          if (job.stalledCounter > 0 && (await backOffAfterStall(services, job, token))) throw new DelayedError();
          return await processor.perform(job.data as never, ctx);
        } catch (err) {
          if (err instanceof DelayedError) throw err;
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
      const connection = bullConnection(config);
      if (connection instanceof Cluster) owned.push(connection);
      const worker = new Worker(queue, perform, {
        connection,
        prefix: services.queues.prefixOf(queue),
        concurrency: processor.queue.concurrency ?? config.WORKER_CONCURRENCY,
        runRetryDelay: 1000,
        lockDuration: config.JOB_LOCK_MS,
        lockRenewTime: config.JOB_LOCK_MS / 4,
        stalledInterval: config.JOB_LOCK_MS / 4,
        // Never reached: a stall is not a failure (STALL_BACKOFF).
        maxStalledCount: Number.MAX_SAFE_INTEGER,
      });
      outage.attach(worker);
      worker.on('completed', () => metrics.jobs.inc({ queue, outcome: 'completed' }));
      // Counted where the stalled check found it; logged where it runs again (backOffAfterStall).
      worker.on('stalled', () => metrics.jobs.inc({ queue, outcome: 'stalled' }));
      worker.on('lockRenewalFailed', (jobIds) =>
        logger.warn({ queue, jobIds }, 'job locks lost: these jobs may run again elsewhere'),
      );
      worker.on('failed', (job, err) => {
        if (!job) return;
        const final = isFinal(job, err, job.attemptsMade);
        metrics.jobs.inc({ queue, outcome: final ? 'failed' : 'retried' });
        logger[final ? 'error' : 'warn'](
          { queue, jobId: job.id, attempt: job.attemptsMade, err: err.message },
          final ? 'job failed for good' : 'job failed, will retry',
        );
      });
      // A worker retries its connection every second in an outage: while the process's connections do not reach
      // Redis, its RedisWatch tells the outage once for every queue; other errors, one line every 30 s per queue.
      let loggedAt = 0;
      worker.on('error', (err) => {
        if (!redis.available && redis.failed(err)) return;
        if (Date.now() - loggedAt < 30_000) return;
        loggedAt = Date.now();
        logger.warn({ queue, err: err.message }, 'worker error');
      });
      return worker;
    });
  // Where webhook deliveries are made, committed webhook events are fanned out as they commit.
  const stopDispatcher = !only || only.includes(webhookDeliveriesQueue.name) ? startWebhookDispatcher(services) : null;
  return {
    workers,
    async close() {
      outage.stop();
      await stopDispatcher?.();
      const closed = Promise.all(workers.map((w) => w.close()));
      if (!owned.length) return void (await closed);
      // On a cluster, a worker whose blocking connection is recovering from a failover may not see its close: past
      // a lock's length its running jobs are left to stall (they run again elsewhere) and its connections dropped.
      // A forced close waits on those connections too: it is bounded the same way, then they are dropped.
      const within = async (work: Promise<unknown>) => {
        let timer: NodeJS.Timeout | undefined;
        const late = await Promise.race([
          work.then(() => false),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), config.JOB_LOCK_MS))),
        ]);
        clearTimeout(timer);
        return late;
      };
      if (await within(closed)) await within(Promise.all(workers.map((w) => w.close(true).catch(() => undefined))));
      owned.forEach((c) => c.disconnect());
    },
  };
}

/**
 * Before a job that stalled runs again: true when it has to wait first (moved to delayed for stallDelayMs), false
 * when it may run now (its first return, or the wait for this stall served already). The stalls served are
 * counted in Redis beside the job (BullMQ keeps its stall count for good, a retry included).
 */
async function backOffAfterStall(services: Services, job: Job, token: string | undefined): Promise<boolean> {
  const stalls = job.stalledCounter;
  const served = Number(
    await services.redis.set(
      services.key('jobs', 'stalls-served', job.queueName, job.id!),
      String(stalls),
      'EX',
      7 * 24 * 3600,
      'GET',
    ),
  );
  if (served >= stalls) return false;
  const delayMs = stallDelayMs(stalls);
  services.logger.warn(
    { queue: job.queueName, jobId: job.id, stalls, delayMs },
    'job back after its worker stopped in it: runs again',
  );
  if (!delayMs || !token) return false;
  await job.moveToDelayed(Date.now() + delayMs, token);
  return true;
}

if (require.main === module) {
  void (async () => {
    await runProcess('worker', servicesFor('worker'), async (services) => {
      const pool = startWorkers(services);
      const redis = redisWatch(services.logger, redisWatchUrl(services.config));
      services.logger.info(
        `worker running ${pool.workers.length} queues${redis.available ? '' : `, waiting for redis at ${redis.address}`}`,
      );
      return () => pool.close();
    });
  })();
}
