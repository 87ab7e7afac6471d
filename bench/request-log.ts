import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { type BenchApp, load, percentile, report, runBenchmark, startBenchApp } from './lib';

/**
 * What the request line costs: GET /auth/me (one authenticated read) on two in-process apps on one database, one
 * at the production default LOG_LEVEL info (one JSON line per request, written to a file as a dyno writes its
 * stdout) and one at warn (no line), loaded in alternating rounds; CPU per request is this process's (the load
 * generator runs in a child, the idle app costs nothing). Goal: info within 1.1x of warn (pino-http measured
 * 1.34-1.66x).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

async function token(app: BenchApp): Promise<string> {
  const em = app.services.orm.em.fork();
  const { user, organization } = await createUser(em, {
    email: `bench-log-${Date.now()}@example.test`,
    password: null,
    displayName: 'bench',
    emailConfirmed: true,
  });
  await em.flush();
  return (await startSession(app.services, em, user, organization.id)).accessToken;
}

void runBenchmark(async () => {
  const info = await startBenchApp('request_log', { workers: false, env: { LOG_LEVEL: 'info' } });
  const warn = await startBenchApp('request_log_warn', { workers: false, sharing: info, env: { LOG_LEVEL: 'warn' } });
  try {
    const headers = { authorization: `Bearer ${await token(info)}` };
    const runs: Record<'info' | 'warn', { cpu: number[]; rps: number[]; p99: number[] }> = {
      info: { cpu: [], rps: [], p99: [] },
      warn: { cpu: [], rps: [], p99: [] },
    };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [level, app] of (round % 2
        ? [
            ['warn', warn],
            ['info', info],
          ]
        : [
            ['info', info],
            ['warn', warn],
          ]) as ['info' | 'warn', BenchApp][]) {
        const r = await load({ url: `${app.url}/auth/me`, headers, connections: 20, duration: SECONDS });
        if (r.non2xx || r.errors) throw new Error(`${level}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        runs[level].cpu.push(r.serverCpuUsPerRequest ?? NaN);
        runs[level].rps.push(r.requestsPerSecond);
        runs[level].p99.push(r.p99Ms);
      }
    }
    const mid = (v: number[]) =>
      percentile(
        [...v].sort((a, b) => a - b),
        50,
      );
    const of = (level: 'info' | 'warn') => ({
      cpuUsPerRequest: mid(runs[level].cpu),
      requestsPerSecond: mid(runs[level].rps),
      p99Ms: mid(runs[level].p99),
    });
    const [atInfo, atWarn] = [of('info'), of('warn')];
    report('request-log', {
      route: 'GET /auth/me',
      rounds: ROUNDS,
      seconds: SECONDS,
      loadAverage: (await import('node:os')).loadavg().map((l) => Math.round(l * 100) / 100),
      info: atInfo,
      warn: atWarn,
      cpuInfoOverWarn: Math.round((atInfo.cpuUsPerRequest / atWarn.cpuUsPerRequest) * 100) / 100,
      goal: 'cpuInfoOverWarn <= 1.1',
    });
  } finally {
    await warn.close();
    await info.close();
  }
});
