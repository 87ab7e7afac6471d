import { apiModules } from '../api/modules';
import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { Subscription } from '../entities/billing/subscription';
import { load, report, startBareExpress, startBenchApp } from './lib';

/**
 * The edge's cost: a gated JSON GET (passport-jwt verify + revocation lookup in Redis + module gating through
 * the entitlement cache) against a bare Express 5 hello-world, same run, same load generator.
 * The probe route is registered the way modules register theirs; its handler does nothing else, so the
 * figure is the price of the auth chain and the app's middleware. Goal: >= 60% of bare (80% aimed).
 */
apiModules.push(({ routes }) => {
  routes('Benchmark').get('/bench/gated', { summary: 'Benchmark probe', access: 'user', module: 'vr' }, ({ auth }) => ({ ok: true, tenantId: auth.tenantId }));
});

async function main() {
  const duration = Number(process.env.BENCH_DURATION ?? 10);
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

    // Warm both servers, then measure them one after the other with the same settings.
    await load({ url: `${bare.url}/hello`, duration: 2, connections });
    await load({ url: `${app.url}/bench/gated`, duration: 2, connections, headers });
    const baseline = await load({ url: `${bare.url}/hello`, duration, connections });
    const gated = await load({ url: `${app.url}/bench/gated`, duration, connections, headers });
    const health = await load({ url: `${app.url}/health`, duration, connections });
    report('edge', {
      durationSeconds: duration,
      connections,
      bareExpress: baseline,
      gatedGet: gated,
      appHealth: health,
      ratioGatedToBare: +(gated.requestsPerSecond / baseline.requestsPerSecond).toFixed(3),
      ratioAppMiddlewareToBare: +(health.requestsPerSecond / baseline.requestsPerSecond).toFixed(3),
      goal: 'gated >= 0.60 of bare (0.80 aimed)',
    });
  } finally {
    await bare.close();
    await app.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
