import { isDependencyDown } from '../../lib/dependencies';

interface Entry<T> {
  item: T;
  resolve(): void;
  reject(err: unknown): void;
}

export interface GroupCommitOptions<T> {
  /** Commits running at once. */
  maxInFlight: number;
  /** A group stops growing once its items weigh this much. */
  maxWeight: number;
  weight(item: T): number;
  /**
   * How long an item may wait for company before its group commits (0: at once). A few ms under a moderate
   * load turn one transaction per item into one per several.
   */
  lingerMs?: number;
}

/**
 * Group commit for many small jobs: an item submitted while commits are in flight waits for the next one,
 * which applies everything waiting in ONE transaction. An item commits at once, or after waiting `lingerMs`
 * for others; busy, groups grow with the load (fewer, larger transactions). Each submitter learns the outcome of its
 * own item: when a group fails, its items are retried one by one so one bad item fails alone, unless the
 * database is down (then they all fail at once, and their jobs wait for it: workers/outage.ts).
 * Only in-flight work lives here; a job completes (in BullMQ) once its item is committed.
 */
export class GroupCommit<T> {
  private pending: Entry<T>[] = [];
  private pendingWeight = 0;
  private inFlight = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly apply: (items: T[]) => Promise<unknown>,
    private readonly options: GroupCommitOptions<T>,
  ) {}

  submit(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.pendingWeight += this.options.weight(item);
      this.schedule();
    });
  }

  /** Commits now when a full group waits (or without linger); otherwise once the linger has passed. */
  private schedule(): void {
    const linger = this.options.lingerMs ?? 0;
    if (linger <= 0 || this.pendingWeight >= this.options.maxWeight) this.drain();
    else this.timer ??= setTimeout(() => this.drain(), linger);
  }

  private drain(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.inFlight < this.options.maxInFlight && this.pending.length) {
      const group = this.take();
      this.inFlight++;
      void this.commit(group).finally(() => {
        this.inFlight--;
        if (this.pending.length) this.schedule();
      });
    }
  }

  private take(): Entry<T>[] {
    let weight = 0;
    let n = 0;
    while (n < this.pending.length && weight < this.options.maxWeight)
      weight += this.options.weight(this.pending[n++].item);
    this.pendingWeight -= weight;
    return this.pending.splice(0, n);
  }

  private async commit(group: Entry<T>[]): Promise<void> {
    try {
      await this.apply(group.map((e) => e.item));
      for (const e of group) e.resolve();
    } catch (err) {
      if (group.length === 1 || isDependencyDown(err)) {
        for (const e of group) e.reject(err);
        return;
      }
      for (const e of group) await this.apply([e.item]).then(e.resolve, e.reject);
    }
  }
}
