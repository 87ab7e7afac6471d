import { Client } from 'pg';
import { telemetryQueue } from '../../queues/vr';
import { startDyno, type Dyno } from '../support/dyno';
import { startProxy, type TcpProxy } from '../support/proxy';
import { startStack, type TestStack } from '../support/stack';
import { createRoom, vrOrg, type VrOrg } from '../support/vr';
import { eventually } from '../support/wait';
import { scaled } from '../support/timeScale';

/**
 * A 202 is a promise: telemetry accepted while the worker's database link is cut (then stalled) is stored
 * exactly once after it returns, and the worker resumes within 3 s. Real processes: the web in this one, the
 * worker dyno in its own, both reaching PostgreSQL through a proxy the test cuts.
 */
describe('jobs during an outage', () => {
  let pg: TcpProxy;
  let redis: TcpProxy;
  let stack: TestStack;
  let worker: Dyno;
  let direct: Client;
  let org: VrOrg;
  let sessionId: string;

  beforeAll(async () => {
    pg = await startProxy('postgres://127.0.0.1:5432');
    redis = await startProxy('redis://127.0.0.1:6379');
    stack = await startStack({ workers: false, via: { postgres: pg, redis } });
    const url = new URL(stack.env.DATABASE_URL);
    url.port = '5432';
    direct = new Client({ connectionString: url.toString() });
    await direct.connect();
    org = await vrOrg(stack, 1);
    const room = await createRoom(stack, org.admin, { participantIds: [org.members[0].user.id] });
    sessionId = (await stack.http.post(`/rooms/${room.id}/host`).set(org.members[0].auth).expect(201)).body.id;
    // A stalled statement is given up after 3 s (not the default 30 s) to keep the test short.
    worker = startDyno('workers/main.ts', { ...stack.env, LOG_LEVEL: 'info', DATABASE_JOB_TIMEOUT_MS: '3000' });
  });
  afterAll(async () => {
    await pg.up();
    await redis.up();
    await worker?.stop();
    await direct?.end();
    await stack.close();
    await pg.close();
    await redis.close();
  });

  /** What PostgreSQL holds (read directly, not through the proxy): events, distinct events, accepted batches stored. */
  const stored = async (acceptedKeys: string[] = []) => {
    const { rows } = await direct.query<{ events: number; distinct: number; accepted: number }>(
      `select (select count(*)::int from vr_telemetry_events where session_id = $1) as events,
              (select count(distinct label)::int from vr_telemetry_events where session_id = $1) as distinct,
              (select count(*)::int from vr_telemetry_batches where session_id = $1 and batch_key = any($2)) as accepted`,
      [sessionId, acceptedKeys],
    );
    return rows[0];
  };

  it(
    'PostgreSQL cut then stalled: loses no accepted event, doubles none, and resumes within 3 s',
    async () => {
      let sent = 0;
      const accepted: string[] = [];
      const send = async () => {
        const key = `batch-${sent++}`;
        const events = Array.from({ length: 10 }, (_, i) => ({ type: 'marker', label: `${key}-e${i}`, detail: '' }));
        const res = await stack.http
          .post(`/sessions/${sessionId}/telemetry`)
          .set(org.members[0].auth)
          .set('Idempotency-Key', key)
          .send({ events })
          .timeout(5000)
          .catch(() => null);
        if (res?.status === 202) accepted.push(key);
      };
      await send();
      await eventually(async () => (await stored()).events === 10, {
        timeoutMs: 30_000,
        what: 'the worker dyno to apply a first batch',
      });
      accepted.length = 0;

      let sending = true;
      const load = (async () => {
        while (sending) {
          await send();
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const phase = (ms: number) => new Promise((r) => setTimeout(r, ms));

      await phase(1500);
      await pg.down();
      await phase(12_000);
      await pg.up();
      pg.stall();
      await phase(10_000);
      const before = await stored();
      const upAt = Date.now();
      await pg.up();
      await eventually(async () => (await stored()).events > before.events, {
        intervalMs: 50,
        timeoutMs: 10_000,
        what: 'the worker to apply a batch again',
      });
      const resumeMs = Date.now() - upAt;
      await phase(1500);
      sending = false;
      await load;

      const outcome = await eventually(
        async () => {
          const s = await stored(accepted);
          return s.accepted === accepted.length ? s : null;
        },
        { timeoutMs: 60_000, intervalMs: 250, what: 'every accepted batch to be stored' },
      );
      const jobs = await stack.services.queues
        .get(telemetryQueue)
        .getJobCounts('failed', 'waiting', 'active', 'delayed');
      console.info(
        `PostgreSQL outage (12 s down, 10 s stalled): ${accepted.length} of ${sent} batches accepted (202); ${outcome.accepted} of them stored, ` +
          `${outcome.events - outcome.distinct} events doubled; the worker applied batches again ${resumeMs} ms after the link returned`,
      );
      expect(accepted.length).toBeGreaterThan(300);
      expect(outcome.events).toBe(outcome.distinct);
      expect(jobs).toEqual({ failed: 0, waiting: 0, active: 0, delayed: 0 });
      expect(resumeMs).toBeLessThan(3000);
      expect(worker.output()).toMatch(/dependency down: workers pause/);
      // The dyno checked Redis's durability at start (the shared test Redis runs without AOF).
      expect(worker.output()).toMatch(/not configured for durable queues/);
    },
    scaled(120_000),
  );

  it(
    'Redis cut: the worker takes jobs again within 3 s of its return',
    async () => {
      const send = (key: string) =>
        stack.http
          .post(`/sessions/${sessionId}/telemetry`)
          .set(org.members[0].auth)
          .set('Idempotency-Key', key)
          .send({ events: [{ type: 'marker', label: key, detail: '' }] })
          .timeout(5000)
          .catch(() => null);
      await redis.down();
      expect((await send('during-redis-outage'))?.status).toBe(503);
      // Longer than BullMQ's run-retry delay and reconnect backoff used to be (15 s, up to 20 s).
      await new Promise((r) => setTimeout(r, 8000));
      const upAt = Date.now();
      await redis.up();
      await eventually(async () => (await send('after-redis-outage'))?.status === 202, {
        intervalMs: 25,
        timeoutMs: 10_000,
        what: 'the web to accept telemetry again',
      });
      const acceptedMs = Date.now() - upAt;
      await eventually(
        async () =>
          (
            await direct.query(
              `select 1 from vr_telemetry_events where session_id = $1 and label = 'after-redis-outage'`,
              [sessionId],
            )
          ).rowCount,
        {
          intervalMs: 25,
          timeoutMs: 10_000,
          what: 'the worker to store the batch',
        },
      );
      const storedMs = Date.now() - upAt;
      console.info(
        `Redis outage (8 s): the web accepted telemetry ${acceptedMs} ms after Redis returned, the worker stored it ${storedMs} ms after`,
      );
      expect(storedMs).toBeLessThan(3000);
    },
    scaled(60_000),
  );
});
