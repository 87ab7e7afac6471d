import { Queue, type Job, type JobsOptions } from 'bullmq';
import { closeRedis, type RedisClient } from '../lib/redis';
import type { QueueDefinition } from './define';
import { allQueues } from './index';

/**
 * Producer side of every queue: one BullMQ Queue per definition over a shared connection.
 *
 * `prefix` (`<namespace>:bull`) heads every queue's keys. On a Redis Cluster BullMQ needs each queue's keys in one
 * slot (its Lua scripts touch several): the prefix of a queue is then hash-tagged by the queue, `{<prefix>:<queue>}`
 * (BullMQ's documented requirement), so one queue's keys share a slot and the queues spread over the masters.
 */
export class Queues {
  private readonly byName = new Map<string, Queue>();
  private readonly cluster: boolean;

  constructor(
    private readonly connection: RedisClient,
    readonly prefix: string,
    /** When set, the base delay of every queue's exponential backoff (JOB_RETRY_DELAY_MS). */
    retryDelayMs = 0,
    onError: (err: Error) => void = () => undefined,
  ) {
    this.cluster = connection.isCluster;
    for (const def of allQueues) {
      const defaults = retryDelayMs
        ? { ...def.defaults, backoff: { type: 'exponential', delay: retryDelayMs } }
        : def.defaults;
      const queue = new Queue(def.name, { connection, prefix: this.prefixOf(def.name), defaultJobOptions: defaults });
      queue.on('error', onError);
      this.byName.set(def.name, queue);
    }
  }

  /** The BullMQ prefix of a queue (a worker of it must use the same): `prefix`, hash-tagged by queue on a cluster. */
  prefixOf(queue: string): string {
    return this.cluster ? `{${this.prefix}:${queue}}` : this.prefix;
  }

  get<P>(def: QueueDefinition<P>): Queue {
    const queue = this.byName.get(def.name);
    if (!queue) throw new Error(`Queue ${def.name} is not registered in queues/index.ts`);
    return queue;
  }

  list(): Queue[] {
    return [...this.byName.values()];
  }

  /**
   * Enqueues one job; a jobId makes the enqueue idempotent (BullMQ ignores a second job with the same id
   * while the first is kept). BullMQ refuses ids with ':' or that are integers: join parts with '.'.
   */
  add<P>(def: QueueDefinition<P>, payload: P, options?: JobsOptions): Promise<Job<P>> {
    return this.get(def).add(def.name, payload, options) as Promise<Job<P>>;
  }

  addBulk<P>(def: QueueDefinition<P>, jobs: { payload: P; options?: JobsOptions }[]): Promise<Job<P>[]> {
    return this.get(def).addBulk(jobs.map((j) => ({ name: def.name, data: j.payload, opts: j.options }))) as Promise<
      Job<P>[]
    >;
  }

  /** Whether a queue of this name is registered (a staged job names its queue). */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Enqueues staged jobs (domain/jobs/stageJob.ts), each on the queue it names, under its own job id. */
  async addStaged(jobs: readonly { queue: string; jobId: string; payload: unknown }[]): Promise<void> {
    const byQueue = new Map<string, { name: string; data: unknown; opts: { jobId: string } }[]>();
    for (const j of jobs) {
      if (!this.byName.has(j.queue)) throw new Error(`Queue ${j.queue} is not registered in queues/index.ts`);
      const list = byQueue.get(j.queue) ?? [];
      list.push({ name: j.queue, data: j.payload, opts: { jobId: j.jobId } });
      byQueue.set(j.queue, list);
    }
    await Promise.all([...byQueue].map(([name, list]) => this.byName.get(name)!.addBulk(list)));
  }

  async close(): Promise<void> {
    // BullMQ waits for its connection to be ready before closing: with Redis down, drop the connection first.
    if (this.connection.status !== 'ready') this.connection.disconnect();
    await Promise.all(this.list().map((q) => q.close().catch(() => undefined)));
    await closeRedis(this.connection);
  }
}
