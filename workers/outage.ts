import type { Worker } from 'bullmq';
import { probe } from '../lib/dependencies';
import type { Logger } from '../lib/logger';

/** A backing service every job may need, and how to ask it whether it answers. */
export interface Dependency {
  name: string;
  check(): Promise<unknown>;
}

/**
 * Jobs wait for their dependencies instead of spending attempts on an outage. Every processor of a worker
 * process runs behind one gate: when a job fails, the gate asks PostgreSQL and Redis whether they answer.
 *  - Both answer: the failure is the job's own; it spends an attempt (retried with its queue's backoff,
 *    failed for good after its last attempt).
 *  - One does not: the job goes back to the head of its waiting list without spending an attempt, every
 *    worker of the process pauses (no job is taken just to fail), and the gate asks again every
 *    `intervalMs`; once the dependency answers, the workers resume and the waiting jobs run again. However
 *    long the outage, a job is neither lost nor failed because of it.
 */
export class OutageGate {
  private readonly workers = new Set<Worker>();
  /** Set while a dependency is down; settles once every dependency answers again. */
  private outage: Promise<void> | null = null;
  private asking: Promise<string | null> | null = null;
  private stopped = false;

  constructor(
    private readonly dependencies: Dependency[],
    private readonly logger: Logger,
    private readonly options: { intervalMs: number; timeoutMs: number } = { intervalMs: 500, timeoutMs: 1000 },
  ) {}

  attach(worker: Worker): void {
    this.workers.add(worker);
  }

  /** Stops waiting for a dependency (shutdown). */
  stop(): void {
    this.stopped = true;
  }

  /** After a job failed: true when a dependency is down, which then pauses the workers until it is back. */
  async explains(): Promise<boolean> {
    if (this.outage) return true;
    const failing = await this.firstDown();
    if (!failing) return false;
    this.outage ??= this.pauseUntilBack(failing);
    return true;
  }

  /** The name of a dependency that does not answer, or null. Concurrent failures share one round of probes. */
  private firstDown(): Promise<string | null> {
    this.asking ??= (async () => {
      const results = await Promise.all(
        this.dependencies.map(async (d) => [d.name, await probe(d.check, this.options.timeoutMs)] as const),
      );
      return results.find(([, result]) => result !== 'ok')?.[0] ?? null;
    })().finally(() => (this.asking = null));
    return this.asking;
  }

  private async pauseUntilBack(dependency: string): Promise<void> {
    const since = Date.now();
    this.logger.warn({ dependency }, 'dependency down: workers pause, jobs wait without spending attempts');
    await Promise.all([...this.workers].map((w) => w.pause(true)));
    while (!this.stopped && (await this.firstDown()))
      await new Promise((resolve) => setTimeout(resolve, this.options.intervalMs));
    this.outage = null;
    if (this.stopped) return;
    this.logger.info({ dependency, downForMs: Date.now() - since }, 'dependencies answer again: workers resume');
    await Promise.all([...this.workers].map((w) => w.resume()));
  }
}
