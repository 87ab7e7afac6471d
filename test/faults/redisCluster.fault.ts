import { Redis } from 'ioredis';
import { createRedis, pingRedis, whenReady } from '../../lib/redis';
import { mailQueue } from '../../queues/identity';
import { presenceSweepQueue, telemetryQueue } from '../../queues/vr';
import { startWorkers, type WorkerPool } from '../../workers/main';
import { createAccount, bearer, uniqueEmail, DEFAULT_PASSWORD } from '../support/factories';
import { deliveredMail, expectProblem } from '../support/identity';
import { startRedisCluster, type RedisCluster } from '../support/redisCluster';
import { startStack, type TestStack } from '../support/stack';
import { scaled } from '../support/timeScale';
import { createRoom, vrOrg } from '../support/vr';
import { eventually } from '../support/wait';

/**
 * The suite on a real three-master Redis Cluster of the test's own (REDIS_CLUSTER_NODES), two dynos sharing it:
 * sign-in, queues and their workers, revocation across dynos, presence, rate limits (Lua scripts whose keys share a
 * slot), pub/sub, and /ready telling the cluster's state. Pointed at a cluster through REDIS_URL, as before, sign-in
 * answered 500 (CROSSSLOT) and every queue errored.
 */
describe('on a Redis Cluster', () => {
  let cluster: RedisCluster;
  let stack: TestStack;
  let other: TestStack;
  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3 });
    stack = await startStack({
      env: {
        ...cluster.env,
        // Sign-in failures per account and address: the Lua-scripted throttle (domain/identity/store/signInThrottle.ts).
        SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS: '3',
        SIGNIN_FAILURES_BEFORE_DELAY: '100',
        RATE_LIMIT_AUTH_PER_MINUTE: '3',
      },
    });
    other = await startStack({ sharing: stack, workers: false });
  });
  // Closing the dyno's workers after a master was cut took up to 16 s here (workers/main.ts bounds each close).
  afterAll(async () => {
    await other?.close();
    await stack?.close();
    await cluster?.stop();
  }, scaled(90_000));

  const signIn = (s: TestStack, email: string, password: string) =>
    s.http.post('/auth/login').send({ email, password });

  it('signs in, revokes across dynos and runs queued jobs', async () => {
    // Ready once the cluster client knows every master (a moment after start).
    const ready = await eventually(async () => {
      const res = await stack.http.get('/ready');
      return res.status === 200 ? res : null;
    });
    expect(ready.body.checks).toEqual({ postgres: 'ok', redis: 'ok' });
    const account = await createAccount(stack);
    const login = await signIn(stack, account.email, account.password).expect(200);
    const token = login.body.accessToken as string;
    await other.http.get('/users/me').set(bearer(token)).expect(200);

    await stack.http.post('/auth/logout').set(bearer(token)).expect(204);
    expect((await other.http.get('/users/me').set(bearer(token))).body.code).toBe('token_revoked');

    // A queued job (a password reset mail) runs on the worker of this dyno.
    await stack.http.post('/auth/forgot-password').send({ email: account.email }).expect(202);
    const mail = await deliveredMail(stack, account.email, 'reset_password');
    expect(mail.status).not.toBe('queued');

    // The queues' keys are hash-tagged by queue and spread over the masters.
    const prefixes = [mailQueue, presenceSweepQueue].map((q) => stack.services.queues.prefixOf(q.name));
    expect(prefixes[0]).toMatch(/^\{.*\}$/);
    const owners = new Set<number>();
    for (const master of cluster.masters) {
      const node = new Redis(master.port, '127.0.0.1');
      const keys = await node.keys(`{${stack.config.REDIS_NAMESPACE}:bull:*`);
      node.disconnect();
      if (keys.length) owners.add(master.port);
    }
    expect(owners.size).toBeGreaterThan(1);
  });

  it('keeps presence and counts rate limits on the cluster', async () => {
    const org = await vrOrg(stack, 1);
    const [host] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: [host.user.id] });
    await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201);
    await other.http.post(`/rooms/${room.id}/heartbeat`).set(host.auth).send({ displayName: 'Headset' }).expect(200);
    const presence = await other.http.get(`/rooms/${room.id}/presence`).set(org.admin.auth).expect(200);
    expect(presence.body.participants.map((p: { userId: string }) => p.userId)).toEqual([host.user.id]);

    // Sign-in throttle (a Lua script over four keys of one slot): failures counted across both dynos.
    const email = uniqueEmail('throttle');
    await createAccount(stack, { email });
    for (const s of [stack, other, stack]) await signIn(s, email, 'wrong-password').expect(401);
    expectProblem(await signIn(other, email, DEFAULT_PASSWORD), 429, 'rate_limited');

    // express-rate-limit over rate-limit-redis (EVALSHA routed by its key): three a minute, on every dyno together.
    const register = (s: TestStack) =>
      s.http.post('/auth/register').send({ email: uniqueEmail('rl'), password: DEFAULT_PASSWORD });
    for (const s of [stack, other, stack]) await register(s).expect(202);
    expectProblem(await register(other), 429, 'rate_limited');
  });

  it('answers /ready 503 while a master is down, 200 once it is back', async () => {
    cluster.kill(cluster.masters[2]);
    const res = await eventually(
      async () => {
        const r = await stack.http.get('/ready');
        return r.status === 503 ? r : null;
      },
      { what: '/ready 503' },
    );
    expect(res.body).toMatchObject({ code: 'not_ready', checks: { postgres: 'ok' } });
    expect(res.body.checks.redis).not.toBe('ok');

    await cluster.restart(cluster.masters[2]);
    await eventually(async () => (await stack.http.get('/ready')).status === 200, { what: '/ready 200 again' });
  });

  it('is not ready when REDIS_URL names a cluster node instead (it would answer 500s)', async () => {
    const node = createRedis({ REDIS_URL: `redis://${cluster.nodes[0]}`, REDIS_TIMEOUT_MS: 2000 });
    try {
      await whenReady(node, 5000);
      await expect(pingRedis(node)).rejects.toThrow(/set REDIS_CLUSTER_NODES/);
    } finally {
      node.disconnect();
    }
  });
});

/**
 * Three masters with a replica each: the master holding the telemetry queue is SIGKILLed while batches are being
 * accepted; its replica takes over (cluster-node-timeout 1 s) and every batch answered 202 is stored exactly once.
 */
describe('a Redis Cluster master killed and replaced by its replica', () => {
  let cluster: RedisCluster;
  let stack: TestStack;
  let workers: WorkerPool | null = null;
  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1 });
    stack = await startStack({ env: cluster.env, workers: false });
  });
  afterAll(async () => {
    await workers?.close();
    await stack?.close();
    await cluster?.stop();
  });

  it('loses no accepted job', async () => {
    const org = await vrOrg(stack, 1);
    const [member] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: [member.user.id] });
    const sessionId = (await stack.http.post(`/rooms/${room.id}/host`).set(member.auth).expect(201)).body.id as string;

    // The master serving the telemetry queue's slot.
    const probe = new Redis(cluster.masters[0].port, '127.0.0.1');
    const slot = Number(await probe.call('CLUSTER', 'KEYSLOT', stack.services.queues.prefixOf(telemetryQueue.name)));
    const shards = (await probe.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
    probe.disconnect();
    const port = shards.find(([from, to]) => slot >= from && slot <= to)![2][1];
    const master = cluster.masters.find((m) => m.port === port)!;

    const accepted: string[] = [];
    let sent = 0;
    const send = async () => {
      const key = `batch-${sent++}`;
      const events = Array.from({ length: 5 }, (_, i) => ({ type: 'marker', label: `${key}-e${i}`, detail: '' }));
      const res = await stack.http
        .post(`/sessions/${sessionId}/telemetry`)
        .set(member.auth)
        .set('Idempotency-Key', key)
        .send({ events })
        .catch(() => null);
      if (res?.status === 202) accepted.push(key);
    };
    for (let i = 0; i < 20; i++) await send();
    cluster.kill(master);
    // Sent through the failover: each is either refused (503) or accepted, and then kept.
    const until = Date.now() + 4000;
    while (Date.now() < until) await send();
    await eventually(async () => (await stack.http.get('/ready')).status === 200, {
      timeoutMs: 20_000,
      what: 'the replica promoted',
    });
    for (let i = 0; i < 10; i++) await send();
    expect(accepted.length).toBeGreaterThanOrEqual(30);

    workers = startWorkers(stack.services, [telemetryQueue.name]);
    const conn = stack.services.orm.em.getConnection();
    const stored = async () =>
      (
        await conn.execute<{ events: number; distinct: number }[]>(
          `select count(*)::int as events, count(distinct label)::int as distinct from vr_telemetry_events where session_id = ?`,
          [sessionId],
        )
      )[0];
    await eventually(async () => (await stored()).distinct >= accepted.length * 5, {
      timeoutMs: 30_000,
      what: 'every accepted batch stored',
    });
    const labels = new Set(
      (
        await conn.execute<{ label: string }[]>(`select label from vr_telemetry_events where session_id = ?`, [
          sessionId,
        ])
      ).map((r) => r.label),
    );
    for (const key of accepted) expect(labels.has(`${key}-e0`)).toBe(true);
    const { events, distinct } = await stored();
    expect(events).toBe(distinct);
  });
});
