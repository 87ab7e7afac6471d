import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { apiModules } from '../api/modules';
import { tenantContext } from '../domain/context';
import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { hostRoom } from '../domain/vr/hostRoom';
import { listRuntimeRooms } from '../domain/vr/listRuntimeRooms';
import { Subscription } from '../entities/billing/subscription';
import { VrRoom } from '../entities/vr/room';
import { VrSession } from '../entities/vr/session';
import { load, percentile, report, runBenchmark, spawnBareExpress, spawnServer, startBareExpress, startBenchApp, type BenchApp, type LoadResult } from './lib';

/**
 * The edge's cost and the real routes' cost, against a bare Express 5 hello-world in the same run, same load
 * generator: a gated probe that does nothing (JWT verify + revocation lookup in Redis + module gating through
 * the entitlement cache), then real routes of the suite: GET /runtime/rooms (10 open rooms assigned to the
 * caller, one with a running session), GET /auth/me, GET /rooms?limit=50 (a page of 50) and POST
 * /rooms/{id}/heartbeat (a small write, Redis). Then memory: the web dyno as deployed (dist/api/server.js, its
 * own process) and bare Express in its own process, both under --max-semi-space-size=32, each loaded for
 * BENCH_MEMORY_SECONDS (30): RSS idle, at the end, and peak.
 * Goals (ratios to bare Express, same run): gated probe >= 0.60 req/s; GET /runtime/rooms >= 0.50 req/s and
 * server CPU per request <= 2.5x; web dyno RSS at the end of the load <= 1.5x bare Express's.
 */
apiModules.push(({ routes }) => {
  routes('Benchmark').get('/bench/gated', { summary: 'Benchmark probe', access: 'user', module: 'vr' }, ({ auth }) => ({ ok: true, tenantId: auth.tenantId }));
});

function summary(results: LoadResult[]) {
  const mid = (pick: (r: LoadResult) => number) => percentile(results.map(pick).sort((a, b) => a - b), 50);
  return {
    requestsPerSecond: mid((r) => r.requestsPerSecond),
    p50Ms: mid((r) => r.p50Ms),
    p99Ms: mid((r) => r.p99Ms),
    serverCpuUsPerRequest: mid((r) => r.serverCpuUsPerRequest ?? NaN),
    non2xx: results.reduce((n, r) => n + r.non2xx + r.errors, 0),
  };
}

/** An organisation on the pro tier with 50 rooms (10 open and assigned to the caller), one session running. */
async function seed(app: BenchApp) {
  const em = app.services.orm.em.fork();
  const { user, organization } = await createUser(em, { email: `bench-${Date.now()}@example.test`, password: null, displayName: 'bench', emailConfirmed: true });
  await em.flush();
  await em.nativeUpdate(Subscription, { tenantId: organization.id }, { tier: 'pro' }, { filters: false });
  const rooms = Array.from({ length: 50 }, (_, i) =>
    em.create(VrRoom, {
      tenantId: organization.id,
      name: `Room ${String(i).padStart(2, '0')}`,
      simulation: 'fire-drill',
      simulationSteps: 12,
      capacity: 8,
      mode: 'multiplayer',
      participantIds: i < 10 ? [user.id] : [],
      status: i < 10 ? 'open' : 'closed',
      openedAt: i < 10 ? new Date() : null,
    }),
  );
  await em.flush();
  await hostRoom(tenantContext(app.services, organization.id, user.id), rooms[0].id);
  const { accessToken } = await startSession(app.services, em, user, organization.id);
  return { headers: { authorization: `Bearer ${accessToken}` }, heartbeatRoom: rooms[0].id, tenantId: organization.id, userId: user.id };
}

/**
 * The database path alone, in-process, without HTTP: CPU per call of the runtime rooms read (10 rooms, then the
 * running session) through an EntityManager fork and em.find, as before, and through lean statements, in
 * alternating batches (robust to the machine's load drifting, unlike requests/s).
 */
async function dbPathCost(app: BenchApp, tenantId: string, userId: string) {
  const viaEm = async () => {
    const em = app.services.orm.em.fork();
    em.setFilterParams('tenant', { tenantId });
    const rooms = await em.find(VrRoom, { status: 'open', participantIds: { $contains: [userId] } }, { orderBy: { name: 'asc', id: 'asc' }, limit: 500 });
    const ids = rooms.map((r) => r.currentSessionId).filter((id): id is string => !!id);
    return ids.length ? em.find(VrSession, { id: { $in: ids } }) : [];
  };
  const ctx = tenantContext(app.services, tenantId, userId);
  const viaLean = () => listRuntimeRooms(ctx);
  const cpuPerCall = async (call: () => Promise<unknown>, n: number) => {
    const before = process.cpuUsage();
    for (let i = 0; i < n; i++) await Promise.all([call(), call(), call(), call()]);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / (n * 4);
  };
  await cpuPerCall(viaEm, 100);
  await cpuPerCall(viaLean, 100);
  const em: number[] = [];
  const leanCalls: number[] = [];
  for (let i = 0; i < 5; i++) {
    em.push(await cpuPerCall(viaEm, 150));
    leanCalls.push(await cpuPerCall(viaLean, 150));
  }
  const mid = (xs: number[]) => Math.round(percentile([...xs].sort((a, b) => a - b), 50));
  return { emFindCpuUsPerCall: mid(em), leanCpuUsPerCall: mid(leanCalls), ratio: +(mid(em) / mid(leanCalls)).toFixed(2) };
}

/** RSS of a server process idle, then at the end of `seconds` of load on `path`, and its peak. */
async function memoryUnderLoad(server: { url: string; memory(): { rssMb: number; peakMb: number } }, path: string, seconds: number, connections: number, headers = {}) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const idleMb = server.memory().rssMb;
  const result = await load({ url: server.url + path, duration: seconds, connections, headers });
  const { rssMb, peakMb } = server.memory();
  return { idleMb, endMb: rssMb, peakMb, requestsPerSecond: result.requestsPerSecond, non2xx: result.non2xx };
}

async function main() {
  const duration = Number(process.env.BENCH_DURATION ?? 4);
  const roundsCount = Number(process.env.BENCH_ROUNDS ?? 5);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const memorySeconds = Number(process.env.BENCH_MEMORY_SECONDS ?? 30);
  // Presence outlives the rounds between two heartbeat loads, however slow a loaded machine makes them.
  const app = await startBenchApp('edge', { workers: false, env: { PRESENCE_TTL_SECONDS: '3600' } });
  const bare = await startBareExpress();
  try {
    const { headers, heartbeatRoom, tenantId, userId } = await seed(app);
    const dbPath = await dbPathCost(app, tenantId, userId);
    const post = { method: 'POST' as const, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ displayName: 'Bench headset', currentStep: 'step-3' }) };
    const targets: Record<string, Parameters<typeof load>[0]> = {
      bareExpress: { url: `${bare.url}/hello` },
      appHealth: { url: `${app.url}/health` },
      gatedGet: { url: `${app.url}/bench/gated`, headers },
      runtimeRooms: { url: `${app.url}/runtime/rooms`, headers },
      authMe: { url: `${app.url}/auth/me`, headers },
      roomsPage50: { url: `${app.url}/rooms?limit=50`, headers },
      heartbeat: { url: `${app.url}/rooms/${heartbeatRoom}/heartbeat`, ...post },
    };
    for (const [name, target] of Object.entries(targets)) {
      const check = await fetch(target.url!, { method: target.method ?? 'GET', headers: target.headers as Record<string, string> | undefined, body: target.body as string | undefined });
      if (check.status !== 200) throw new Error(`${name} answered ${check.status}: ${await check.text()}`);
    }

    // Warm every target, then alternate short rounds of each so drift in machine load hits all alike;
    // the median round is reported, and each ratio is the median of the per-round ratios.
    for (const target of Object.values(targets)) await load({ ...target, duration: 1, connections });
    const rounds: Record<string, LoadResult>[] = [];
    for (let i = 0; i < roundsCount; i++) {
      const round: Record<string, LoadResult> = {};
      for (const [name, target] of Object.entries(targets)) round[name] = await load({ ...target, duration, connections });
      rounds.push(round);
    }
    const median = (pick: (r: Record<string, LoadResult>) => number) => +percentile(rounds.map(pick).sort((a, b) => a - b), 50).toFixed(3);
    const figures: Record<string, unknown> = {};
    for (const name of Object.keys(targets)) {
      figures[name] = {
        ...summary(rounds.map((r) => r[name])),
        ...(name === 'bareExpress'
          ? {}
          : {
              ratioToBare: median((r) => r[name].requestsPerSecond / r.bareExpress.requestsPerSecond),
              cpuPerRequestToBare: median((r) => r[name].serverCpuUsPerRequest! / r.bareExpress.serverCpuUsPerRequest!),
            }),
      };
    }

    let memory: Record<string, unknown> | string = 'skipped (BENCH_MEMORY_SECONDS=0)';
    if (memorySeconds > 0) {
      // The web dyno as the Procfile runs it: compiled (npm run build, incremental), in a process of its own.
      execFileSync(process.execPath, [join(__dirname, '..', 'bin', 'build.mjs')], { stdio: 'ignore' });
      const web = await spawnServer(['dist/api/server.js'], app.env);
      const bareProcess = await spawnBareExpress();
      try {
        const webMemory = await memoryUnderLoad(web, '/runtime/rooms', memorySeconds, connections, headers);
        const bareMemory = await memoryUnderLoad(bareProcess, '/hello', memorySeconds, connections);
        memory = { webDyno: { ...webMemory, runs: 'dist/api/server.js', loadedRoute: 'GET /runtime/rooms' }, bareExpress: bareMemory, ratioEndRss: +(webMemory.endMb / bareMemory.endMb).toFixed(2) };
      } finally {
        await web.close();
        await bareProcess.close();
      }
    }

    report('edge', {
      rounds: roundsCount,
      secondsPerRound: duration,
      connections,
      ...figures,
      runtimeRoomsDatabasePath: dbPath,
      memory,
      goals: 'gated >= 0.60 of bare req/s; runtimeRooms >= 0.50 of bare req/s and <= 2.5x its CPU per request; web dyno RSS at the end of the load <= 1.5x bare Express',
    });
  } finally {
    await bare.close();
    await app.close();
  }
}

void runBenchmark(main);
