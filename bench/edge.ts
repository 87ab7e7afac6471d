import { apiModules } from '../api/modules';
import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { Subscription } from '../entities/billing/subscription';
import { load, percentile, report, startBareExpress, startBenchApp, type LoadResult, runBenchmark } from './lib';

/**
 * The edge's cost: a gated JSON GET (passport-jwt verify + revocation lookup in Redis + module gating through
 * the entitlement cache) against a bare Express 5 hello-world, same run, same load generator.
 * The probe route is registered the way modules register theirs; its handler does nothing else, so the
 * figure is the price of the auth chain and the app's middleware. Goal: >= 60% of bare (80% aimed).
 */
apiModules.push(({ routes }) => {
  routes('Benchmark').get('/bench/gated', { summary: 'Benchmark probe', access: 'user', module: 'vr' }, ({ auth }) => ({ ok: true, tenantId: auth.tenantId }));
});

function summary(results: LoadResult[]) {
  const mid = (pick: (r: LoadResult) => number) => percentile(results.map(pick).sort((a, b) => a - b), 50);
  return { requestsPerSecond: mid((r) => r.requestsPerSecond), p50Ms: mid((r) => r.p50Ms), p99Ms: mid((r) => r.p99Ms), serverCpuUsPerRequest: mid((r) => r.serverCpuUsPerRequest ?? NaN) };
}

async function main() {
  const duration = Number(process.env.BENCH_DURATION ?? 4);
  const roundsCount = Number(process.env.BENCH_ROUNDS ?? 5);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const app = await startBenchApp('edge', { workers: false });
  const bare = await startBareExpress();
  try {
    const em = app.services.orm.em.fork();
    const { user, organization } = await createUser(em, { email: `bench-${Date.now()}@example.test`, password: null, displayName: 'bench', emailConfirmed: true });
    await em.flush();
    await em.nativeUpdate(Subscription, { tenantId: organization.id }, { tier: 'pro' }, { filters: false });
    const { accessToken } = await startSession(app.services, em, user, organization.id);
    const headers = { authorization: `Bearer ${accessToken}` };

    const check = await fetch(`${app.url}/bench/gated`, { headers });
    if (check.status !== 200) throw new Error(`probe answered ${check.status}: ${await check.text()}`);

    // Warm both servers, then alternate short rounds of each so drift in machine load hits both alike;
    // the median round is reported.
    await load({ url: `${bare.url}/hello`, duration: 2, connections });
    await load({ url: `${app.url}/bench/gated`, duration: 2, connections, headers });
    const rounds: { bare: LoadResult; gated: LoadResult; health: LoadResult }[] = [];
    for (let i = 0; i < roundsCount; i++) {
      rounds.push({
        bare: await load({ url: `${bare.url}/hello`, duration, connections }),
        gated: await load({ url: `${app.url}/bench/gated`, duration, connections, headers }),
        health: await load({ url: `${app.url}/health`, duration, connections }),
      });
    }
    const median = (pick: (r: (typeof rounds)[number]) => number) => percentile(rounds.map(pick).sort((a, b) => a - b), 50);
    report('edge', {
      rounds: roundsCount,
      secondsPerRound: duration,
      connections,
      bareExpress: summary(rounds.map((r) => r.bare)),
      gatedGet: { ...summary(rounds.map((r) => r.gated)), non2xx: rounds.reduce((n, r) => n + r.gated.non2xx, 0) },
      appHealth: summary(rounds.map((r) => r.health)),
      ratioGatedToBare: +median((r) => r.gated.requestsPerSecond / r.bare.requestsPerSecond).toFixed(3),
      ratioAppMiddlewareToBare: +median((r) => r.health.requestsPerSecond / r.bare.requestsPerSecond).toFixed(3),
      // Server CPU per request is what throughput comes down to when a core is saturated; robust to noise.
      cpuRatioBareToGated: +median((r) => r.bare.serverCpuUsPerRequest! / r.gated.serverCpuUsPerRequest!).toFixed(3),
      goal: 'gated >= 0.60 of bare (0.80 aimed)',
    });
  } finally {
    await bare.close();
    await app.close();
  }
}

void runBenchmark(main);
