import { Client } from 'pg';

interface Link {
  client: Client;
  ready: Promise<Client>;
}

interface Round {
  pids: Set<number>;
  result: Promise<Set<number> | null>;
}

/**
 * Tells a wait from an outage. A statement PostgreSQL has not answered yet may be waiting its turn (a row lock,
 * a busy server) or lost on a stalled or dead link, and a request waiting for a pooled connection may wait for
 * busy connections or for dead ones: silence alone cannot tell. This asks PostgreSQL on a connection of its own
 * (one per pool, opened on first need) which of the backends it is asked about are running a statement. The
 * questions of the moment share one statement; a question without an answer within `answerMs` means down,
 * unless PostgreSQL sent something on another connection meanwhile (`heard`): then it answers and this process
 * is only slow to read it (a busy event loop), and the answer is awaited up to `patienceMs`.
 */
export class DbLiveness {
  private link: Link | null = null;
  private next: Round | null = null;
  private last: Promise<unknown> = Promise.resolve();
  private lastHeardAt = 0;

  constructor(
    private readonly url: string,
    private readonly answerMs: number,
    private readonly patienceMs: number,
  ) {}

  /** Something arrived from PostgreSQL (called by the pool's connections). */
  heard(): void {
    this.lastHeardAt = Date.now();
  }

  /** Whether the backend `pid` is running a statement (waiting for a lock included): its silence is a wait. */
  async working(pid: number): Promise<boolean> {
    return (await this.ask(pid))?.has(pid) ?? false;
  }

  /** Whether PostgreSQL answers at all. */
  async answering(): Promise<boolean> {
    return (await this.ask()) !== null;
  }

  async close(): Promise<void> {
    const link = this.link;
    this.link = null;
    await link?.client.end().catch(() => undefined);
  }

  /** Joins the next question (one at a time on the connection), adding `pid` to those it asks about. */
  private ask(pid?: number): Promise<Set<number> | null> {
    let round = this.next;
    if (!round) {
      const pids = new Set<number>();
      const result = this.last.then(() => {
        if (this.next === round) this.next = null;
        return this.query([...pids]);
      });
      round = this.next = { pids, result };
      this.last = result;
    }
    if (pid !== undefined) round.pids.add(pid);
    return round.result;
  }

  /** The active backends among `pids`, or null when PostgreSQL did not answer (the connection is then dropped). */
  private async query(pids: number[]): Promise<Set<number> | null> {
    const link = (this.link ??= this.open());
    const sentAt = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const active = await new Promise<Set<number> | null>((resolve) => {
      const wait = () => {
        timer = setTimeout(
          // setImmediate: a timer that fired while the event loop was busy must not beat an answer already received.
          () =>
            setImmediate(() =>
              Date.now() - this.lastHeardAt < this.answerMs && Date.now() - sentAt < this.patienceMs
                ? wait()
                : resolve(null),
            ),
          this.answerMs,
        );
      };
      wait();
      link.ready
        .then((c) =>
          c.query<{ pid: number }>(`select pid from pg_stat_activity where pid = any($1::int[]) and state = 'active'`, [
            pids,
          ]),
        )
        .then(
          (res) => resolve(new Set(res.rows.map((r) => r.pid))),
          () => resolve(null),
        );
    });
    clearTimeout(timer);
    if (!active) this.drop(link);
    return active;
  }

  private open(): Link {
    const client = new Client({
      connectionString: this.url,
      connectionTimeoutMillis: this.patienceMs,
      keepAlive: true,
    });
    const link: Link = { client, ready: client.connect().then(() => client) };
    link.ready.catch(() => this.drop(link));
    client.on('error', () => this.drop(link));
    return link;
  }

  /** Forgets a connection that failed or stalled (the next question opens another) and destroys its socket. */
  private drop(link: Link): void {
    if (this.link === link) this.link = null;
    (link.client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }
}
