import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { LiveRooms } from '../domain/vr/store/liveRooms';
import { sweepPresence } from '../domain/vr/sweepPresence';
import { Membership, Role } from '../entities/identity/organization';
import { Subscription } from '../entities/billing/subscription';
import { percentile, report, startBareExpress, startBenchApp, runBenchmark } from './lib';

/**
 * Presence: POST /rooms/{id}/heartbeat (auth chain, validation, one Lua script in Redis, no database) by
 * 16 participants of 4 rooms, against /health of the same app and a bare Express hello-world, same run.
 * Reports heartbeats/s, latency, the web process's CPU per heartbeat (main thread: the load generator runs
 * in a worker thread) and Redis's, and the cost of a presence sweep over 10,000 live participants.
 */
const duration = Number(process.env.BENCH_DURATION ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

/** CPU microseconds used so far by a thread or process, from /proc (10 ms ticks). */
function cpuUs(path: string): number {
  const fields = readFileSync(path, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
const mainThread = `/proc/${process.pid}/task/${process.pid}/stat`;

async function redisPid(app: Awaited<ReturnType<typeof startBenchApp>>): Promise<number> {
  const info = await app.services.redis.info('server');
  return Number(/process_id:(\d+)/.exec(info)![1]);
}

async function main() {
  const app = await startBenchApp('vr_presence', { workers: false, env: { PRESENCE_TTL_SECONDS: '60' } });
  const bare = await startBareExpress();
  try {
    const em = app.services.orm.em.fork();
    const { user: owner, organization } = await createUser(em, {
      email: `bench-${Date.now()}@example.test`,
      password: null,
      displayName: 'owner',
      emailConfirmed: true,
    });
    await em.flush();
    await em.nativeUpdate(Subscription, { tenantId: organization.id }, { tier: 'pro' }, { filters: false });
    const ownerToken = (await startSession(app.services, em, owner, organization.id)).accessToken;
    const member = await em.findOneOrFail(
      Role,
      { tenantId: organization.id, key: 'member' },
      { filters: { tenant: false } },
    );
    const people = [];
    for (let i = 0; i < 16; i++) {
      const { user } = await createUser(em, {
        email: `bench-${Date.now()}-${i}@example.test`,
        password: null,
        displayName: `trainee ${i}`,
        emailConfirmed: true,
      });
      const m = em.create(Membership, { tenantId: organization.id, user });
      m.roles.add(member);
      await em.flush();
      people.push({ id: user.id, token: (await startSession(app.services, em, user, organization.id)).accessToken });
    }
    const call = async (token: string, method: string, path: string, body?: object) => {
      const res = await fetch(`${app.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string };
    };
    const requests: autocannon.Request[] = [];
    for (let r = 0; r < 4; r++) {
      const group = people.slice(r * 4, r * 4 + 4);
      const room = await call(ownerToken, 'POST', '/rooms', {
        name: `Room ${r}`,
        simulation: 'bench-sim',
        simulationSteps: 10,
        mode: 'multiplayer',
        participantIds: group.map((p) => p.id),
      });
      await call(ownerToken, 'POST', `/rooms/${room.id}/open`);
      await call(group[0].token, 'POST', `/rooms/${room.id}/host`);
      for (const p of group.slice(1)) await call(p.token, 'POST', `/rooms/${room.id}/join`);
      for (const p of group) {
        requests.push({
          method: 'POST',
          path: `/rooms/${room.id}/heartbeat`,
          headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ displayName: 'Trainee', currentStep: 'step-3', isHost: false }),
        });
      }
    }

    const redis = `/proc/${await redisPid(app)}/stat`;
    const measure = async (options: autocannon.Options) => {
      const [web0, redis0] = [cpuUs(mainThread), cpuUs(redis)];
      const result = await autocannon({ connections, duration, workers: 1, ...options });
      const total = result.requests.total || 1;
      return {
        requestsPerSecond: Math.round(result.requests.average),
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        non2xx: result.non2xx,
        webCpuUsPerRequest: Math.round((cpuUs(mainThread) - web0) / total),
        redisCpuUsPerRequest: Math.round((cpuUs(redis) - redis0) / total),
      };
    };
    const heartbeat = { url: app.url, requests };
    await measure({ ...heartbeat, duration: 2 });
    type Round = Record<'bare' | 'health' | 'heartbeat', Awaited<ReturnType<typeof measure>>>;
    const results: Round[] = [];
    for (let i = 0; i < rounds; i++) {
      results.push({
        bare: await measure({ url: `${bare.url}/hello` }),
        health: await measure({ url: `${app.url}/health` }),
        heartbeat: await measure(heartbeat),
      });
    }
    const median = (k: keyof Round, f: keyof Round[keyof Round]) =>
      percentile(
        results.map((r) => r[k][f]).sort((a, b) => a - b),
        50,
      );
    const summary = (k: keyof Round) => ({
      requestsPerSecond: median(k, 'requestsPerSecond'),
      p50Ms: median(k, 'p50Ms'),
      p99Ms: median(k, 'p99Ms'),
      webCpuUsPerRequest: median(k, 'webCpuUsPerRequest'),
      redisCpuUsPerRequest: median(k, 'redisCpuUsPerRequest'),
    });

    // The sweep's steady-state cost: 10,000 live participants in 200 rooms, none expired.
    const live = new LiveRooms(app.services);
    for (let r = 0; r < 200; r++) {
      const roomId = randomUUID();
      const sessionId = randomUUID();
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          live.arrive({
            tenantId: organization.id,
            roomId,
            sessionId,
            hostUserId: 'host',
            userId: `user-${i}`,
            displayName: 'x',
          }),
        ),
      );
    }
    const sweepStart = process.hrtime.bigint();
    const swept = await sweepPresence(app.services);
    const sweepMs = Number(process.hrtime.bigint() - sweepStart) / 1e6;

    report('presence', {
      rounds,
      secondsPerRound: duration,
      connections,
      participants: requests.length,
      bareExpress: summary('bare'),
      appHealth: summary('health'),
      heartbeat: { ...summary('heartbeat'), non2xx: results.reduce((n, r) => n + r.heartbeat.non2xx, 0) },
      ratioHeartbeatToHealth: +(
        median('heartbeat', 'requestsPerSecond') / median('health', 'requestsPerSecond')
      ).toFixed(3),
      // One heartbeat every 20 s per participant (the spec's interval).
      participantsOneWebProcessServes: median('heartbeat', 'requestsPerSecond') * 20,
      sweep: { liveRooms: swept.rooms, participants: 10_000 + requests.length, milliseconds: Math.round(sweepMs) },
    });
  } finally {
    await bare.close();
    await app.close();
  }
}

void runBenchmark(main);
