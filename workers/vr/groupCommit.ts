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
}

/**
 * Group commit for many small jobs: an item submitted while commits are in flight waits for the next one,
 * which applies everything waiting in ONE transaction. Idle, an item commits at once (no added latency);
 * busy, groups grow with the load (fewer, larger transactions). Each submitter learns the outcome of its
 * own item: when a group fails, its items are retried one by one so one bad item fails alone.
 * Only in-flight work lives here; a job completes (in BullMQ) once its item is committed.
 */
export class GroupCommit<T> {
  private pending: Entry<T>[] = [];
  private inFlight = 0;

  constructor(
    private readonly apply: (items: T[]) => Promise<unknown>,
    private readonly options: GroupCommitOptions<T>,
  ) {}

  submit(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    while (this.inFlight < this.options.maxInFlight && this.pending.length) {
      const group = this.take();
      this.inFlight++;
      void this.commit(group).finally(() => {
        this.inFlight--;
        this.drain();
      });
    }
  }

  private take(): Entry<T>[] {
    let weight = 0;
    let n = 0;
    while (n < this.pending.length && weight < this.options.maxWeight) weight += this.options.weight(this.pending[n++].item);
    return this.pending.splice(0, n);
  }

  private async commit(group: Entry<T>[]): Promise<void> {
    try {
      await this.apply(group.map((e) => e.item));
      for (const e of group) e.resolve();
    } catch (err) {
      if (group.length === 1) return group[0].reject(err);
      for (const e of group) await this.apply([e.item]).then(e.resolve, e.reject);
    }
  }
}
