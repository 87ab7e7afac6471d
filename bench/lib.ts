import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import express from 'express';
import { Client } from 'pg';
import pino from 'pino';
import { startWeb, type WebServer } from '../api/server';
import { createServices, type Services } from '../domain/services';
import { loadConfig } from '../lib/config';
import { createLogger } from '../lib/logger';
import { migrate } from '../lib/db';
import { startWorkers, type WorkerPool } from '../workers/main';

/** A real app instance for a benchmark: its own freshly migrated database and Redis namespace. */
export interface BenchApp {
  services: Services;
  web: WebServer;
  url: string;
  workers: WorkerPool | null;
  env: Record<string, string>;
  close(): Promise<void>;
}

const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Starts the app the way a dyno runs: at the production default LOG_LEVEL info (BENCH_LOG_LEVEL overrides), its lines
 * written to a file (/tmp/platform-bench-<name>.log) as a dyno writes them to its stdout pipe. `sharing` starts a second instance on the
 * same database and Redis namespace; `workers: false` leaves jobs to another instance.
 */
export async function startBenchApp(
  name: string,
  options: { env?: Record<string, string>; workers?: boolean; sharing?: BenchApp } = {},
): Promise<BenchApp> {
  const port = await freePort();
  const db = `bench_${name.replace(/\W/g, '_')}`;
  const own = !options.sharing;
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${db}`;
  const env: Record<string, string> = {
    ...(options.sharing?.env ?? {
      NODE_ENV: 'production',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_NAMESPACE: `bench_${name}`,
      JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-0123456789',
      INTERNAL_SECRET: 'bench-internal-secret',
      STORAGE_DIR: `/tmp/platform-bench-storage/${name}`,
    }),
    ...options.env,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
  if (own) await admin(`drop database if exists "${db}" with (force)`);
  const config = loadConfig(env);
  const lines = pino.destination({ dest: `/tmp/platform-bench-${name.replace(/\W/g, '_')}.log`, sync: true });
  const services = await createServices(config, createLogger(config, lines));
  // Benchmarks run as one role, the admin's (production's two roles: README, "Database roles").
  if (own) await migrate(services.orm, { MIGRATION_DATABASE_URL: '', production: false });
  const web = await startWeb(services, port);
  const workers = options.workers === false ? null : startWorkers(services);
  return {
    services,
    web,
    url: web.url,
    workers,
    env,
    async close() {
      await web.close();
      await workers?.close();
      if (own) {
        const keys = await services.redis.keys(`${config.REDIS_NAMESPACE}:*`);
        if (keys.length) await services.redis.del(...keys);
      }
      await services.close();
      if (own) await admin(`drop database if exists "${db}" with (force)`);
    },
  };
}

/** The baseline every HTTP benchmark is compared with: a bare Express 5 hello-world JSON GET. */
export async function startBareExpress(): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.get('/hello', (_req, res) => {
    res.json({ hello: 'world' });
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /**
   * CPU time the server spent per request, in microseconds: the given server process's (`server`), else this
   * process's when the load generator ran in a child.
   */
  serverCpuUsPerRequest?: number;
}

const hasFunction = (value: unknown): boolean =>
  typeof value === 'function' ||
  (typeof value === 'object' && value !== null && Object.values(value).some(hasFunction));

/**
 * autocannon on loopback, bounded in time. With plain options the load generator runs in a child process,
 * so it does not share the server's event loop, and the server's own CPU per request is measured too;
 * options with functions (dynamic bodies) run in-process.
 */
export async function load(options: autocannon.Options, server?: Pick<ServerProcess, 'cpuUs'>): Promise<LoadResult> {
  const opts = { connections: 50, duration: 10, ...options };
  let result: autocannon.Result;
  let cpuUs: number | undefined;
  if (hasFunction(opts)) {
    result = await autocannon(opts);
  } else {
    const ownCpu = () => {
      const used = process.cpuUsage();
      return used.user + used.system;
    };
    const cpuNow = server ? () => server.cpuUs() : ownCpu;
    const before = cpuNow();
    const child = spawn(
      process.execPath,
      [
        '-e',
        "require('autocannon')(JSON.parse(process.argv[1]), (e, r) => { if (e) throw e; process.stdout.write(JSON.stringify(r)); })",
        JSON.stringify(opts),
      ],
      {
        cwd: join(__dirname, '..'),
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    const [code] = await once(child, 'exit');
    if (code !== 0) throw new Error(`load generator exited with ${code}`);
    const used = cpuNow() - before;
    result = JSON.parse(Buffer.concat(out).toString()) as autocannon.Result;
    cpuUs = used / Math.max(1, result.requests.total);
  }
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    ...(cpuUs !== undefined ? { serverCpuUsPerRequest: Math.round(cpuUs) } : {}),
  };
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Prints the figures and keeps them in bench/results/<name>.json (committed as the last report). */
/** p50/p95/p99 (ms, two decimals) and the count of a set of latencies. */
export function latencyStats(values: number[]): { p50Ms: number; p95Ms: number; p99Ms: number; n: number } {
  const sorted = [...values].sort((x, y) => x - y);
  const round = (n: number) => +n.toFixed(2);
  return {
    p50Ms: round(percentile(sorted, 50)),
    p95Ms: round(percentile(sorted, 95)),
    p99Ms: round(percentile(sorted, 99)),
    n: sorted.length,
  };
}

/** Latencies (ms) of n requests sent one after the other, each read to its end; anything but 200 stops the run. */
export async function timeSequential(n: number, request: (i: number) => Promise<Response>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await request(i);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`answered ${res.status}`);
    out.push(performance.now() - t);
  }
  return out;
}

export function report(name: string, figures: Record<string, unknown>): void {
  const dir = join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const body = {
    benchmark: name,
    at: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    ...figures,
  };
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(body, null, 2) + '\n');
  console.log(JSON.stringify(body, null, 2));
}

/** Runs a benchmark's main; a failure exits non-zero (npm run bench reports it). */
export async function runBenchmark(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (err) {
    console.error(err);
    process.exit(1);
  }
}

/** A server in a process of its own (a dyno): its memory (RSS now and the high-water mark, in MB) and CPU time. */
export interface ServerProcess {
  url: string;
  memory(): { rssMb: number; peakMb: number };
  /** CPU time the process has run so far, in microseconds (the scheduler's own count, to the nanosecond). */
  cpuUs(): number;
  close(): Promise<void>;
}

/**
 * The Node flags a dyno runs with, as the Procfile says (`web: node <flags> dist/...`): benchmarks start the web
 * dyno, and bare Express beside it, with exactly these.
 */
export function dynoNodeFlags(dyno: string): string[] {
  const line = readFileSync(join(__dirname, '..', 'Procfile'), 'utf8').match(
    new RegExp(`^${dyno}:\\s*node\\s+(.*)$`, 'm'),
  );
  if (!line) throw new Error(`Procfile has no node command for ${dyno}`);
  return line[1].split(/\s+/).filter((word) => word.startsWith('--'));
}

const statusMb = (pid: number, field: 'VmRSS' | 'VmHWM') => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return line ? Math.round(Number(line[1]) / 1024) : NaN;
};

/**
 * Spawns `node <args>` with the web dyno's Node flags (dynoNodeFlags) on a free port and waits until GET `ready`
 * answers. The bare Express baseline runs the same way, so both are measured under the same V8 flags.
 */
export async function spawnServer(
  args: string[],
  env: Record<string, string>,
  ready = '/health',
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...dynoNodeFlags('web'), ...args], {
    cwd: join(__dirname, '..'),
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      NODE_OPTIONS: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null) throw new Error(`server ${args.join(' ')} exited with ${child.exitCode}`);
    if (waited > 60_000) throw new Error(`server ${args.join(' ')} did not answer ${ready}`);
    if (
      await fetch(url + ready).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    memory: () => ({ rssMb: statusMb(child.pid!, 'VmRSS'), peakMb: statusMb(child.pid!, 'VmHWM') }),
    // The whole process (every thread: libuv pool, GC helpers), not the main thread's schedstat, which missed
    // 17-34% of the web dyno's CPU against 7-17% of a floor's.
    cpuUs: () => processCpuMs(`/proc/${child.pid}/stat`) * 1000,
    async close() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

/** CPU milliseconds (user + system, all threads) a process or thread used so far, from /proc (10 ms ticks). */
export function processCpuMs(statPath: string): number {
  try {
    const fields = readFileSync(statPath, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0; // the process ended meanwhile
  }
}

/**
 * The floor of a read that makes one database round trip: bare Express 5 (own process, see spawnServer) whose
 * GET /hello sends `statement` as a named prepared statement on a pg Pool of `poolMax` connections and answers
 * its rows as JSON. No authentication, validation, middleware or row conversion: what any Express route that
 * awaits that statement pays at least.
 */
export const spawnBareExpressWithStatement = (
  databaseUrl: string,
  poolMax: number,
  statement: string,
  values: unknown[],
) =>
  spawnServer(
    [
      '-e',
      `const app = require('express')(); const pool = new (require('pg').Pool)({ connectionString: process.env.DATABASE_URL, max: ${poolMax} });
const query = { name: 'floor', text: process.env.STATEMENT, values: JSON.parse(process.env.VALUES) };
app.get('/hello', async (_q, s) => { s.json({ items: (await pool.query(query)).rows }); }); app.listen(Number(process.env.PORT), '127.0.0.1');`,
    ],
    { DATABASE_URL: databaseUrl, STATEMENT: statement, VALUES: JSON.stringify(values) },
    '/hello',
  );

/** Bare Express 5 hello-world in a process of its own (see spawnServer). */
export const spawnBareExpress = () =>
  spawnServer(
    [
      '-e',
      "const app = require('express')(); app.get('/hello', (_q, s) => { s.json({ hello: 'world' }); }); app.listen(Number(process.env.PORT), '127.0.0.1');",
    ],
    {},
    '/hello',
  );
