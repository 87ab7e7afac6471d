import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { newId } from '../entities/base';
import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { githubDeliveryJobId } from '../domain/work/receiveGithubWebhook';
import { githubDeliveriesQueue } from '../queues/work';
import { startWorkers } from '../workers/main';
import { load, report, runBenchmark, startBareExpress, startBenchApp, type LoadResult } from './lib';

/**
 * Inbound webhooks. Two figures:
 *  1. Ack latency of POST /api/work/github/webhook at a fixed 500 requests/s (autocannon's overallRate, in a
 *     child process): every request a new X-GitHub-Delivery and body, HMAC-signed by the load generator, so
 *     each is verified, stored and enqueued. Baseline: bare Express answering a JSON GET at the same rate in
 *     the same run. Web only: no worker competes with the acks (as a web dyno).
 *  2. Processing throughput: BENCH_WEBHOOK_DELIVERIES stored deliveries (default 10,000, each closing the
 *     issue of its own linked work item) drained by the worker (queue concurrency 64, one process); deliveries
 *     processed per second, and exactly once: every delivery processed with one attempt, every item changed once.
 */
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 500);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const DELIVERIES = Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? 10_000);
const GOAL_PER_SECOND = 1000;

/** The load generator for signed deliveries: each request gets its own delivery id, body and signature. */
const SIGNED_LOAD = `
const { createHmac, randomUUID } = require('node:crypto');
const { url, secret, duration, rate } = JSON.parse(process.argv[1]);
let n = 0;
require('autocannon')({ url, duration, connections: 20, overallRate: rate, method: 'POST', requests: [{ setupRequest: (req) => {
  n++;
  const body = JSON.stringify({ action: 'closed', issue: { number: 1000000 + n, updated_at: new Date().toISOString() }, repository: { full_name: 'bench/repo' } });
  return { ...req, body, headers: { 'content-type': 'application/json', 'x-github-event': 'issues', 'x-github-delivery': randomUUID(), 'x-hub-signature-256': 'sha256=' + createHmac('sha256', secret).update(body).digest('hex') } };
} }] }, (e, r) => { if (e) throw e; process.stdout.write(JSON.stringify(r)); });`;

async function signedLoad(url: string, secret: string): Promise<LoadResult> {
  const child = spawn(
    process.execPath,
    ['-e', SIGNED_LOAD, JSON.stringify({ url, secret, duration: DURATION, rate: RATE })],
    { cwd: join(__dirname, '..'), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const out: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`load generator exited with ${code}`);
  const r = JSON.parse(Buffer.concat(out).toString()) as autocannon.Result;
  return {
    requestsPerSecond: Math.round(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

async function main() {
  // Set-up writes thousands of rows and jobs in large statements: the request path's Redis and database bounds are raised.
  const app = await startBenchApp('webhooks', {
    workers: false,
    env: { DATABASE_TIMEOUT_MS: '5000', REDIS_TIMEOUT_MS: '5000' },
  });
  const bare = await startBareExpress();
  try {
    const em = app.services.orm.em.fork();
    const { user, organization } = await createUser(em, {
      email: `bench-webhooks-${Date.now()}@example.test`,
      password: null,
      displayName: 'bench',
      emailConfirmed: true,
    });
    await em.flush();
    const tenantId = organization.id;
    const { accessToken } = await startSession(app.services, em, user, tenantId);
    const set = await fetch(`${app.url}/api/work/github/secret`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    if (set.status !== 200) throw new Error(`secret answered ${set.status}: ${await set.text()}`);
    const { secret, webhookUrl } = (await set.json()) as { secret: string; webhookUrl: string };

    // 1. Ack latency at a fixed rate, next to bare Express (warm both first).
    await load({ url: `${bare.url}/hello`, duration: 2, connections: 20, overallRate: RATE });
    await signedLoad(webhookUrl, secret);
    const baseline = await load({ url: `${bare.url}/hello`, duration: DURATION, connections: 20, overallRate: RATE });
    const webhook = await signedLoad(webhookUrl, secret);

    // 2. Throughput of the worker: deliveries stored as the route stores them, each closing its own linked item.
    await em.execute(`delete from work_github_deliveries where tenant_id = ?`, [tenantId]);
    await app.services.queues.get(githubDeliveriesQueue).obliterate({ force: true });
    const now = new Date();
    const rows = Array.from({ length: DELIVERIES }, (_, i) => ({ id: newId(), item: newId(), number: i + 1 }));
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000);
      await em.execute(
        `insert into work_items (id, tenant_id, created_at, updated_at, title, status, link_provider, link_repository, link_number) values ${chunk.map(() => `(?, ?, ?, ?, ?, 'todo', 'github', 'bench/repo', ?)`).join(', ')}`,
        chunk.flatMap((r) => [r.item, tenantId, now, now, `Item ${r.number}`, r.number]),
      );
      await em.execute(
        `insert into work_github_deliveries (id, tenant_id, created_at, delivery_id, event, action, payload) values ${chunk.map(() => `(?, ?, ?, ?, 'issues', 'closed', ?)`).join(', ')}`,
        chunk.flatMap((r) => [
          r.id,
          tenantId,
          now,
          `bench-${r.id}`,
          JSON.stringify({
            action: 'closed',
            issue: { number: r.number, updated_at: now.toISOString() },
            repository: { full_name: 'bench/repo' },
          }),
        ]),
      );
    }
    for (let i = 0; i < rows.length; i += 500) {
      await app.services.queues.addBulk(
        githubDeliveriesQueue,
        rows
          .slice(i, i + 500)
          .map((r) => ({ payload: { tenantId, id: r.id }, options: { jobId: githubDeliveryJobId(tenantId, r.id) } })),
      );
    }
    const t = performance.now();
    const workers = startWorkers(app.services, [githubDeliveriesQueue.name]);
    let processed = 0;
    while (processed < DELIVERIES) {
      await new Promise((r) => setTimeout(r, 100));
      const [row] = await em.execute<{ n: number }[]>(
        `select count(*)::int as n from work_github_deliveries where tenant_id = ? and processed_at is not null`,
        [tenantId],
      );
      processed = Number(row.n);
      if (performance.now() - t > 120_000) break;
    }
    const seconds = (performance.now() - t) / 1000;
    await workers.close();
    const [check] = await em.execute<{ processed: number; once: number; applied: number; items_done: number }[]>(
      `select (select count(*) from work_github_deliveries where tenant_id = ? and processed_at is not null)::int as processed,
              (select count(*) from work_github_deliveries where tenant_id = ? and attempts = 1 and items_changed = 1)::int as once,
              (select count(*) from work_github_deliveries where tenant_id = ? and outcome = 'applied')::int as applied,
              (select count(*) from work_items where tenant_id = ? and link_repository = 'bench/repo' and link_number <= ? and status = 'done')::int as items_done`,
      [tenantId, tenantId, tenantId, tenantId, DELIVERIES],
    );
    const perSecond = Math.round(DELIVERIES / seconds);
    report('webhooks', {
      note: 'loopback, one process on a shared 2-core machine; figures are noisy under load',
      ack: {
        ratePerSecond: RATE,
        seconds: DURATION,
        bareExpress: baseline,
        githubWebhook: webhook,
        p99RatioToBare: +(webhook.p99Ms / Math.max(1, baseline.p99Ms)).toFixed(2),
      },
      processing: {
        deliveries: DELIVERIES,
        seconds: +seconds.toFixed(2),
        processedPerSecond: perSecond,
        goalPerSecond: GOAL_PER_SECOND,
        meetsGoal: perSecond >= GOAL_PER_SECOND,
        exactlyOnce:
          check.processed === DELIVERIES &&
          check.once === DELIVERIES &&
          check.applied === DELIVERIES &&
          check.items_done === DELIVERIES,
        check,
      },
    });
  } finally {
    await bare.close();
    await app.close();
  }
}

void runBenchmark(main);
