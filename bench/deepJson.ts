import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Subscription } from '../entities/billing/subscription';
import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { percentile, report, runBenchmark, startBenchApp } from './lib';

/**
 * Deeply nested JSON: what refusing it costs, and whether a flood of it slows everyone else. The body is the
 * worst one a route accepts in size: `{"a":` nested 300,000 levels (1.8 MB, under the telemetry route's 2 MB
 * limit), POSTed by an authorised headset (400 json_too_deep). Baselines measured in the same run: the CPU
 * JSON.parse alone spends on that body in this process (what every such request cost before the depth scan,
 * before class-transformer even started to recurse), and a flat body of the same size on the same route
 * (`{"events":[1,1,...]}`, parsed, then 413). Each flood: 8 connections from autocannon in a child process
 * for a few seconds, while /health is timed; /health idle is the latency baseline.
 */
const DEPTH = 300_000;
const FLOOD = { connections: 8, duration: Number(process.env.BENCH_FLOOD_SECONDS ?? 5) };

const stats = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const round = (n: number) => +n.toFixed(2);
  return { p50Ms: round(percentile(sorted, 50)), p99Ms: round(percentile(sorted, 99)), n: sorted.length };
};

/**
 * autocannon in a child process (so it does not share the server's event loop) POSTing a body kept in a
 * file: lib.ts's load() hands its options over the command line, too small for a 1.8 MB body. Returns
 * bodies per second and this (server) process's CPU per body.
 */
async function flood(target: {
  url: string;
  headers: Record<string, string>;
  body: string;
}): Promise<{ bodiesPerSecond: number; serverCpuUsPerBody: number; errors: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-deep-'));
  const file = join(dir, 'body.json');
  writeFileSync(file, target.body);
  const script =
    "const [o, f] = process.argv.slice(1); require('autocannon')({ ...JSON.parse(o), method: 'POST', body: require('fs').readFileSync(f) }, (e, r) => { if (e) throw e; process.stdout.write(JSON.stringify(r)); })";
  const before = process.cpuUsage();
  const child = spawn(
    process.execPath,
    ['-e', script, JSON.stringify({ url: target.url, headers: target.headers, ...FLOOD }), file],
    { cwd: join(__dirname, '..'), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const out: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  await once(child, 'exit');
  const used = process.cpuUsage(before);
  rmSync(dir, { recursive: true });
  const result = JSON.parse(Buffer.concat(out).toString()) as {
    requests: { average: number; total: number };
    errors: number;
  };
  return {
    bodiesPerSecond: Math.round(result.requests.average),
    serverCpuUsPerBody: Math.round((used.user + used.system) / Math.max(1, result.requests.total)),
    errors: result.errors,
  };
}

async function timedHealth(url: string): Promise<number> {
  const t = performance.now();
  await (await fetch(`${url}/health`)).arrayBuffer();
  return performance.now() - t;
}

async function main() {
  const app = await startBenchApp('deep_json', { workers: false });
  try {
    const em = app.services.orm.em.fork();
    const { user, organization } = await createUser(em, {
      email: `bench-deep-${Date.now()}@example.test`,
      password: null,
      displayName: 'headset',
      emailConfirmed: true,
    });
    await em.flush();
    await em.nativeUpdate(Subscription, { tenantId: organization.id }, { tier: 'pro' }, { filters: false });
    const { accessToken } = await startSession(app.services, em, user, organization.id);
    const deep = `{"events":[${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}]}`;
    const flat = `{"events":[${'1,'.repeat((Buffer.byteLength(deep) - 14) / 2)}1]}`;
    const request = (body: string) => ({
      url: `${app.url}/sessions/${randomUUID()}/telemetry`,
      method: 'POST' as const,
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body,
    });
    const send = async (body: string) => {
      const t = performance.now();
      const res = await fetch(request(body).url, request(body));
      const answer = (await res.json()) as { code: string };
      return { ms: performance.now() - t, answer: `${res.status} ${answer.code}` };
    };

    const answers = { deep: (await send(deep)).answer, flat: (await send(flat)).answer };
    if (!answers.deep.startsWith('400 json_too_deep')) throw new Error(`the deep body answered ${answers.deep}`);
    const refusal: number[] = [];
    for (let i = 0; i < 20; i++) refusal.push((await send(deep)).ms);
    const parse: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      JSON.parse(deep);
      parse.push(performance.now() - t);
    }

    const idle: number[] = [];
    for (let i = 0; i < 200; i++) idle.push(await timedHealth(app.url));

    const measuredFlood = async (body: string) => {
      const health: number[] = [];
      let done = false;
      const flooding = flood(request(body)).finally(() => (done = true));
      while (!done) health.push(await timedHealth(app.url));
      return { ...(await flooding), health: stats(health) };
    };
    const deepFlood = await measuredFlood(deep);
    const flatFlood = await measuredFlood(flat);

    report('deepJson', {
      bodyBytes: Buffer.byteLength(deep),
      depth: DEPTH,
      answers,
      refusal: stats(refusal),
      baselineJsonParseInProcess: stats(parse),
      healthIdle: stats(idle),
      deepFlood,
      baselineFlatFlood: flatFlood,
      ratios: {
        refusalVsParseP50: +(
          percentile(
            [...refusal].sort((x, y) => x - y),
            50,
          ) /
          percentile(
            [...parse].sort((x, y) => x - y),
            50,
          )
        ).toFixed(3),
        serverCpuDeepVsFlat: +(deepFlood.serverCpuUsPerBody / flatFlood.serverCpuUsPerBody).toFixed(2),
        healthP50DeepFloodVsIdle: +(deepFlood.health.p50Ms / stats(idle).p50Ms).toFixed(2),
        healthP50DeepFloodVsFlatFlood: +(deepFlood.health.p50Ms / flatFlood.health.p50Ms).toFixed(2),
      },
    });
  } finally {
    await app.close();
  }
}

void runBenchmark(main);
