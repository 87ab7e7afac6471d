import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { newId } from '../entities/base';
import { tenantContext } from '../domain/context';
import { createUser } from '../domain/identity/createUser';
import { createEndpoint } from '../domain/webhooks/createEndpoint';
import { emitEvent } from '../domain/webhooks/emitEvent';
import { envelopeOf } from '../domain/webhooks/envelope';
import { newSigningSecret, signedHeaders } from '../domain/webhooks/signature';
import { webhookDeliveriesQueue } from '../queues/webhooks';
import { startWorkers } from '../workers/main';
import { latencyStats, report, runBenchmark, startBenchApp } from './lib';

/**
 * Outbound webhooks (customers' endpoints, docs/webhooks.md), emit to delivered at a local receiver on loopback.
 *  1. Throughput: BENCH_WEBHOOK_OUT_EVENTS (2,000) customer.created events, each of its own customer, committed in
 *     transactions of 100 through emitEvent (the outbox) while the worker runs (webhook-deliveries only, queue
 *     concurrency 32, endpoint concurrency 32, organisation rate unbounded): events/s from the first commit to
 *     the last delivery received, every event received once (distinct webhook-ids).
 *  2. Delay from commit to delivery at a steady BENCH_WEBHOOK_OUT_RATE (100 events/s, 10 every 100 ms) for
 *     BENCH_DURATION (8) s: p50/p99 of (received - the event's timestamp).
 * Baseline, same run, same receiver: bare node:http POSTs of signed payloads of the same shape and size, 32 at a
 * time, a new connection each (agent: false, as the worker's): POSTs/s. One process (app, worker, receiver,
 * baseline) on a shared 2-core machine: noisy under load; the load average is reported.
 */
const EVENTS = Number(process.env.BENCH_WEBHOOK_OUT_EVENTS ?? 2000);
const RATE = Number(process.env.BENCH_WEBHOOK_OUT_RATE ?? 100);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONCURRENCY = 32;
const TIMEOUT_MS = 180_000;

interface Receipt {
  id: string;
  at: number;
  timestamp: number;
}

/** A receiver answering 200 at once; it records each webhook-id, when it came, and the body's timestamp. */
async function startReceiver() {
  const got: Receipt[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { timestamp?: string };
      got.push({ id: String(req.headers['webhook-id']), at, timestamp: Date.parse(body.timestamp ?? '') });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    got,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const customer = () => ({ id: newId(), name: 'Client Martin SARL', kind: 'company', primaryEmail: 'x@example.test' });

/** The floor: `n` signed POSTs of the same shape, CONCURRENCY at a time, a connection each. */
async function bareSignedPosts(port: number, n: number): Promise<number> {
  const secret = newSigningSecret();
  let next = 0;
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const id = newId();
      const body = envelopeOf(
        { id, type: 'customer.created', resource: `customer:${id}`, payload: customer(), createdAt: new Date() },
        65536,
      );
      const headers = signedHeaders([secret], id, Math.floor(Date.now() / 1000), body);
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/baseline',
          method: 'POST',
          agent: false,
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const t = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < n) await post();
    }),
  );
  return Math.round(n / ((performance.now() - t) / 1000));
}

async function waitFor(done: () => boolean, what: string): Promise<void> {
  const t = Date.now();
  while (!done()) {
    if (Date.now() - t > TIMEOUT_MS) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function main() {
  const load: { before: number; after?: number } = { before: loadavg()[0] };
  const receiver = await startReceiver();
  const app = await startBenchApp('webhooks-out', {
    workers: false,
    // The worker runs in this process: a worker dyno's patience with PostgreSQL and Redis, not the request path's.
    env: {
      DATABASE_TIMEOUT_MS: '5000',
      REDIS_TIMEOUT_MS: '5000',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_ENDPOINT_CONCURRENCY: String(CONCURRENCY),
      WEBHOOK_RATE_PER_SECOND: '1000000',
    },
  });
  const workers = startWorkers(app.services, [webhookDeliveriesQueue.name]);
  try {
    const em = app.services.orm.em.fork();
    const { organization } = await createUser(em, {
      email: `bench-webhooks-out-${Date.now()}@example.test`,
      password: null,
      displayName: 'bench',
      emailConfirmed: true,
    });
    await em.flush();
    const tenantId = organization.id;
    await createEndpoint(tenantContext(app.services, tenantId), {
      url: receiver.url,
      description: 'bench',
      eventTypes: [],
      enabled: true,
    });
    const emit = async (n: number) => {
      const tx = app.services.orm.em.fork();
      for (let i = 0; i < n; i++) emitEvent(tx, tenantId, 'customer.created', customer());
      await tx.flush();
    };

    // Warm-up (connections, statements, JIT), then the floor and the app, the floor again after.
    await emit(100);
    await waitFor(() => receiver.got.length >= 100, 'the warm-up');
    await bareSignedPosts(receiver.port, 500);
    const bareBefore = await bareSignedPosts(receiver.port, EVENTS);

    // 1. Throughput.
    receiver.got.length = 0;
    const t0 = Date.now();
    for (let i = 0; i < EVENTS; i += 100) await emit(Math.min(100, EVENTS - i));
    const committedMs = Date.now() - t0;
    await waitFor(() => new Set(receiver.got.map((r) => r.id)).size >= EVENTS, 'every delivery');
    const lastAt = Math.max(...receiver.got.map((r) => r.at));
    const seconds = (lastAt - t0) / 1000;
    const distinct = new Set(receiver.got.map((r) => r.id)).size;
    const throughput = {
      events: EVENTS,
      commitSeconds: +(committedMs / 1000).toFixed(2),
      seconds: +seconds.toFixed(2),
      eventsPerSecond: Math.round(EVENTS / seconds),
      received: receiver.got.length,
      distinct,
      delay: latencyStats(receiver.got.map((r) => r.at - r.timestamp).sort((a, b) => a - b)),
    };
    const bareAfter = await bareSignedPosts(receiver.port, EVENTS);

    // 2. Delay at a steady rate.
    receiver.got.length = 0;
    const perTick = Math.max(1, Math.round(RATE / 10));
    const ticks = DURATION * 10;
    const start = Date.now();
    for (let k = 0; k < ticks; k++) {
      await emit(perTick);
      await new Promise((r) => setTimeout(r, Math.max(0, start + (k + 1) * 100 - Date.now())));
    }
    await waitFor(() => receiver.got.length >= perTick * ticks, 'the steady-rate deliveries');
    const steady = {
      ratePerSecond: perTick * 10,
      seconds: DURATION,
      events: perTick * ticks,
      delay: latencyStats(receiver.got.map((r) => r.at - r.timestamp).sort((a, b) => a - b)),
    };
    load.after = loadavg()[0];
    const bare = Math.round((bareBefore + bareAfter) / 2);
    report('webhooks-out', {
      note: 'loopback, one process (app, worker, receiver, baseline) on a shared 2-core machine; noisy under load',
      loadAverage: { before: +load.before.toFixed(2), after: +(load.after ?? 0).toFixed(2) },
      config: { queueConcurrency: CONCURRENCY, endpointConcurrency: CONCURRENCY, eventsPerTransaction: 100 },
      baseline: { bareSignedPostsPerSecond: { before: bareBefore, after: bareAfter, mean: bare } },
      throughput: { ...throughput, shareOfBare: +(throughput.eventsPerSecond / bare).toFixed(2) },
      steady,
      everyEventDelivered: throughput.distinct === EVENTS,
      copies: throughput.received - throughput.distinct,
    });
  } finally {
    await workers.close();
    await app.close();
    await receiver.close();
  }
}

void runBenchmark(main);
