import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { processCpuMs, type ServerProcess } from '../lib';

/** What bench/telemetry.ts measures with: a paced open-loop load, the CPU of each process, the web dyno's GC pauses. */

/**
 * Open-loop load at a steady rate (autocannon's rate limit sends each second's requests in one burst, which
 * measures the burst, not the service): a worker thread fires POSTs at even intervals over keep-alive
 * connections and times each from its scheduled start (no coordinated omission).
 */
const PACED = `
const { workerData, parentPort } = require('node:worker_threads');
const http = require('node:http');
const { url, headers, body, rate, seconds } = workerData;
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
const interval = 1000 / rate;
const latencies = [];
let sent = 0, done = 0, non2xx = 0, errors = 0, stopped = false;
const start = performance.now();
const finish = () => { if (++done === sent && stopped) report(); };
const report = () => { agent.destroy(); parentPort.postMessage({ latencies, sent, non2xx, errors }); };
function fire(scheduled) {
  sent++;
  const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent,
    headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
    res.resume();
    res.on('end', () => { latencies.push(performance.now() - scheduled); if (res.statusCode >= 300) non2xx++; finish(); });
  });
  req.on('error', () => { errors++; finish(); });
  req.end(body);
}
const timer = setInterval(() => {
  const elapsed = performance.now() - start;
  if (elapsed >= seconds * 1000) { clearInterval(timer); stopped = true; if (done === sent) report(); return; }
  while (sent < Math.floor(elapsed / interval) + 1) fire(start + sent * interval);
}, 1);
`;

export interface PacedResult {
  latencies: number[];
  sent: number;
  non2xx: number;
  errors: number;
}

export function paced(workerData: {
  url: string;
  headers: Record<string, string>;
  body: string;
  rate: number;
  seconds: number;
}): Promise<PacedResult> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(PACED, { eval: true, workerData });
    thread.once('message', resolve);
    thread.once('error', reject);
  });
}

const cpuMs = processCpuMs;

/** Where the machine's CPU goes: the web dyno, the load generator (this process), the worker dyno, PostgreSQL, Redis. */
export function cpuSnapshot(web: ServerProcess, workerPid: number, redisPid: number) {
  const postgres = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .reduce((sum, pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres' ? sum + cpuMs(`/proc/${pid}/stat`) : sum;
      } catch {
        return sum;
      }
    }, 0);
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + fields[4];
  const total = fields.reduce((a, b) => a + b, 0);
  return {
    web: web.cpuUs() / 1000,
    loadGenerator: cpuMs(`/proc/${process.pid}/stat`),
    worker: cpuMs(`/proc/${workerPid}/stat`),
    postgres,
    redis: cpuMs(`/proc/${redisPid}/stat`),
    machine: (total - idle) * 10,
  };
}
export type CpuSnapshot = ReturnType<typeof cpuSnapshot>;

/** CPU milliseconds per 1000 events since `from`, by part. */
export function cpuPer1000Events(from: CpuSnapshot, to: CpuSnapshot, events: number): CpuSnapshot {
  const per = (k: keyof CpuSnapshot) => +(((to[k] - from[k]) / events) * 1000).toFixed(1);
  return {
    web: per('web'),
    loadGenerator: per('loadGenerator'),
    worker: per('worker'),
    postgres: per('postgres'),
    redis: per('redis'),
    machine: per('machine'),
  };
}

/** GC pauses of one kind: how many, their total, how many took over 10 ms. */
export interface GcPauses {
  count: number;
  totalMs: number;
  over10Ms: number;
}

/** The web dyno's GC pauses so far by kind (minor, major, incremental ...), from its /metrics (prom-client's buckets: 1, 10, 100 ms ...). */
export async function gcPauses(web: ServerProcess): Promise<Record<string, GcPauses>> {
  const text = await (await fetch(`${web.url}/metrics`)).text();
  const byKind: Record<string, GcPauses> = {};
  const upTo10Ms: Record<string, number> = {};
  for (const [, le, kind, value] of text.matchAll(
    /^nodejs_gc_duration_seconds_bucket\{le="([^"]+)",kind="(\w+)"\} (\S+)$/gm,
  )) {
    if (le === '0.01') upTo10Ms[kind] = Number(value);
    if (le === '+Inf') byKind[kind] = { count: Number(value), totalMs: 0, over10Ms: 0 };
  }
  for (const [, kind, value] of text.matchAll(/^nodejs_gc_duration_seconds_sum\{kind="(\w+)"\} (\S+)$/gm)) {
    if (byKind[kind])
      byKind[kind] = {
        ...byKind[kind],
        totalMs: Number(value) * 1000,
        over10Ms: byKind[kind].count - (upTo10Ms[kind] ?? 0),
      };
  }
  return byKind;
}
