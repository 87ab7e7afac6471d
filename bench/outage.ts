import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { Subscription } from '../entities/billing/subscription';
import { startProxy } from '../test/support/proxy';
import { report, runBenchmark, startBenchApp } from './lib';

/**
 * A PostgreSQL outage under telemetry load (the "a 202 is a promise" goal): this process is the web dyno, a
 * child process the worker dyno, both reaching PostgreSQL through a TCP proxy that cuts the link for
 * BENCH_OUTAGE_SECONDS (default 300: five minutes) while batches keep coming at BENCH_RATE a second (default
 * 20, 10 events each, each with an Idempotency-Key). Every batch answered 202 must be stored exactly once.
 * Figures: batches sent, accepted (202), refused (503, not accepted: the client retries), accepted ones lost,
 * events doubled, the worker's first batch after the link returned, and the time to drain the backlog.
 */
const outageSeconds = Number(process.env.BENCH_OUTAGE_SECONDS ?? 300);
const rate = Number(process.env.BENCH_RATE ?? 20);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const proxy = await startProxy('postgres://127.0.0.1:5432');
  const dbUrl = new URL(process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  dbUrl.pathname = '/bench_outage';
  const app = await startBenchApp('outage', { workers: false, env: { DATABASE_URL: proxy.via(dbUrl.toString()) } });
  const direct = new Client({ connectionString: dbUrl.toString() });
  let worker: ChildProcess | null = null;
  let workerLog = '';
  try {
    await direct.connect();
    const { PORT: _port, ...workerEnv } = app.env;
    worker = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '..', 'workers', 'main.ts')], {
      env: { ...process.env, ...workerEnv, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    worker.stdout!.on('data', (chunk: Buffer) => (workerLog += chunk.toString()));

    const em = app.services.orm.em.fork();
    const { user, organization } = await createUser(em, {
      email: `outage-${Date.now()}@example.test`,
      password: null,
      displayName: 'bench',
      emailConfirmed: true,
    });
    await em.flush();
    await em.nativeUpdate(Subscription, { tenantId: organization.id }, { tier: 'pro' }, { filters: false });
    const { accessToken } = await startSession(app.services, em, user, organization.id);
    const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
    const api = async (path: string, body: object = {}) =>
      (await fetch(`${app.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json() as Promise<{
        id: string;
      }>;
    const room = await api('/rooms', {
      name: 'Outage',
      simulation: 'bench-sim',
      simulationSteps: 20,
      mode: 'multiplayer',
      participantIds: [user.id],
    });
    await api(`/rooms/${room.id}/open`);
    const session = await api(`/rooms/${room.id}/host`);

    const statuses = new Map<string, number>();
    const sentAt = new Map<string, number>();
    let sent = 0;
    const send = async () => {
      const key = `batch-${sent++}`;
      sentAt.set(key, Date.now());
      const events = Array.from({ length: 10 }, (_, i) => ({ type: 'marker', label: `${key}-${i}`, detail: '' }));
      const res = await fetch(`${app.url}/sessions/${session.id}/telemetry`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': key },
        body: JSON.stringify({ events }),
        signal: AbortSignal.timeout(10_000),
      }).catch(() => null);
      statuses.set(key, res?.status ?? 0);
    };
    let sending = true;
    const inFlight = new Set<Promise<void>>();
    const load = (async () => {
      for (let next = Date.now(); sending; next += 1000 / rate) {
        const p = send().finally(() => inFlight.delete(p));
        inFlight.add(p);
        await sleep(Math.max(0, next + 1000 / rate - Date.now()));
      }
    })();
    const storedEvents = async () =>
      Number(
        (await direct.query('select count(*)::int as n from vr_telemetry_events where session_id = $1', [session.id]))
          .rows[0].n,
      );

    console.log(`load at ${rate} batches/s; cutting PostgreSQL for ${outageSeconds} s in 20 s`);
    await sleep(20_000);
    const cutAt = Date.now();
    await proxy.down();
    await sleep(outageSeconds * 1000);
    const before = await storedEvents();
    const upAt = Date.now();
    await proxy.up();
    while ((await storedEvents()) === before && Date.now() - upAt < 60_000) await sleep(50);
    const resumeMs = Date.now() - upAt;
    const acceptedKeys = () => [...statuses].filter(([, status]) => status === 202).map(([key]) => key);
    const storedOf = async (keys: string[]) =>
      Number(
        (
          await direct.query(
            'select count(*)::int as n from vr_telemetry_batches where session_id = $1 and batch_key = any($2)',
            [session.id, keys],
          )
        ).rows[0].n,
      );
    const backlog = acceptedKeys().filter((key) => sentAt.get(key)! < upAt);
    while ((await storedOf(backlog)) < backlog.length && Date.now() - upAt < 300_000) await sleep(100);
    const drainMs = Date.now() - upAt;
    await sleep(Math.max(0, 30_000 - drainMs));
    sending = false;
    await load;
    await Promise.all(inFlight);

    const accepted = acceptedKeys();
    let stored = await storedOf(accepted);
    for (
      const deadline = Date.now() + 120_000;
      stored < accepted.length && Date.now() < deadline;
      stored = await storedOf(accepted)
    )
      await sleep(250);
    const { rows } = await direct.query<{ events: number; distinct: number }>(
      'select count(*)::int as events, count(distinct label)::int as distinct from vr_telemetry_events where session_id = $1',
      [session.id],
    );
    const jobs = await app.services.queues
      .list()
      .find((q) => q.name === 'vr-telemetry')!
      .getJobCounts('failed', 'waiting', 'delayed');
    const byStatus: Record<string, number> = {};
    for (const status of statuses.values()) byStatus[status] = (byStatus[status] ?? 0) + 1;

    report('outage', {
      outageSeconds,
      ratePerSecond: rate,
      batchesSent: sent,
      answers: byStatus,
      acceptedBatches: accepted.length,
      acceptedDuringOutage: accepted.filter((key) => sentAt.get(key)! >= cutAt && sentAt.get(key)! < upAt).length,
      acceptedBatchesStored: stored,
      acceptedBatchesLost: accepted.length - stored,
      eventsDoubled: rows[0].events - rows[0].distinct,
      failedJobs: jobs.failed,
      workerResumedAfterMs: resumeMs,
      backlogOfOutageStoredAfterMs: drainMs,
      workerPausedForOutage: /dependency down: workers pause/.test(workerLog),
    });
    if (stored !== accepted.length || rows[0].events !== rows[0].distinct)
      throw new Error('accepted telemetry was lost or doubled');
  } finally {
    await proxy.up();
    worker?.kill('SIGTERM');
    await direct.end().catch(() => undefined);
    await app.close();
    await proxy.close();
  }
}

void runBenchmark(main);
