import { Webhook } from 'standardwebhooks';
import { startDyno, type Dyno } from '../support/dyno';
import { createAccount, type Account } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';
import { scaled } from '../support/timeScale';
import { eventually } from '../support/wait';
import { startReceiver } from '../support/webhookReceiver';

const CUSTOMERS = 30;
/** Each customer: created, then renamed twice (one resource, three events in order). */
const EVENTS = CUSTOMERS * 3;
const RECEIVER_DELAY_MS = 400;

/**
 * A worker dyno (a real process) SIGKILLed in the middle of deliveries to a slow receiver (each answer 400 ms
 * late, so attempts are in flight), then a new one started. Afterwards every accepted event has been delivered
 * (at least once, the same webhook-id and body each time), a copy only of an attempt the killed dyno had made,
 * each customer's events first received in their order, and the log consistent: every delivery delivered, its
 * attempts counter equal to its attempt rows, the last of them the 2xx.
 */
describe('webhook deliveries when a worker dyno is killed', () => {
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let owner: Account;
  let secret: string;
  const dynos: Dyno[] = [];

  beforeAll(async () => {
    receiver = await startReceiver(() => 200, { delayMs: RECEIVER_DELAY_MS });
    stack = await startStack({
      workers: false,
      env: {
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_ENDPOINT_CONCURRENCY: '4',
        WEBHOOK_TIMEOUT_MS: '3000',
      },
    });
    owner = await createAccount(stack);
    secret = (
      await stack.http
        .post('/api/webhooks/endpoints')
        .set(owner.auth)
        .send({ url: receiver.url('/hooks'), eventTypes: [] })
        .expect(201)
    ).body.secret as string;
  }, scaled(60_000));

  afterAll(async () => {
    await Promise.all(dynos.map((d) => d.stop()));
    await stack?.close();
    await receiver?.close();
  });

  const worker = () => {
    const dyno = startDyno('workers/main.ts', { ...stack.env, LOG_LEVEL: 'info', DATABASE_POOL_MAX: '10' });
    dynos.push(dyno);
    return dyno;
  };
  const sql = <T extends object>(text: string, params: unknown[] = []) =>
    stack.services.orm.em.fork().execute<T[]>(text, params);

  it(
    'delivers every accepted event at least once, in order per resource, with a consistent log',
    async () => {
      // Accepted: each change answered 2xx (its event committed with it).
      let accepted = 0;
      const customers: string[] = [];
      for (let i = 0; i < CUSTOMERS; i++) {
        const made = await stack.http
          .post('/api/customers')
          .set(owner.auth)
          .send({ kind: 'person', name: `Client ${i} v0` })
          .expect(201);
        accepted++;
        customers.push(made.body.id as string);
      }
      for (let v = 1; v <= 2; v++)
        for (const [i, id] of customers.entries()) {
          await stack.http
            .patch(`/api/customers/${id}`)
            .set(owner.auth)
            .send({ name: `Client ${i} v${v}` })
            .expect(200);
          accepted++;
        }
      expect(accepted).toBe(EVENTS);
      const events = await sql<{ id: string }>('select id from webhook_events where tenant_id = ? order by id', [
        owner.tenantId,
      ]);
      expect(events).toHaveLength(EVENTS);

      // The first dyno delivers until some deliveries are done and attempts are in flight at the receiver.
      const first = worker();
      const ids = () => new Set(receiver.on('/hooks').map((r) => r.headers['webhook-id'] as string));
      await eventually(() => ids().size >= 12 && receiver.answering >= 2, {
        timeoutMs: 90_000,
        intervalMs: 5,
        what: 'deliveries in flight',
      });
      const inFlightAtKill = receiver.answering;
      await first.stop('SIGKILL');
      const beforeKill = receiver.on('/hooks').length;
      const deliveredAtKill = ids().size;
      expect(deliveredAtKill).toBeLessThan(EVENTS);

      worker();
      await eventually(
        async () => {
          const [row] = await sql<{ n: number }>(
            "select count(*)::int as n from webhook_deliveries where tenant_id = ? and status = 'delivered'",
            [owner.tenantId],
          );
          return row.n === EVENTS;
        },
        { timeoutMs: 120_000, intervalMs: 200, what: 'every delivery delivered after the restart' },
      );

      // Every accepted event reached the receiver, signed, under its own id; nothing else did.
      const hook = new Webhook(secret);
      const got = receiver.on('/hooks');
      const firstOf = new Map<string, { type: string; data: { id: string; name: string }; body: string }>();
      for (const r of got) {
        const id = r.headers['webhook-id'] as string;
        const e = hook.verify(r.body, r.headers as Record<string, string>) as {
          id: string;
          type: string;
          data: { id: string; name: string };
        };
        expect(e.id).toBe(id);
        const seen = firstOf.get(id);
        // A copy is the same body (only the signature's timestamp differs).
        if (seen) expect(r.body).toBe(seen.body);
        else firstOf.set(id, { type: e.type, data: e.data, body: r.body });
      }
      expect([...firstOf.keys()].sort()).toEqual(events.map((e) => e.id).sort());
      // A copy only of an attempt the killed dyno had made (POSTed, not recorded).
      const copies = got.filter(
        (r, i) => got.findIndex((o) => o.headers['webhook-id'] === r.headers['webhook-id']) !== i,
      );
      const madeBeforeKill = new Set(got.slice(0, beforeKill).map((r) => r.headers['webhook-id']));
      // Otherwise a copy is a retry: the delivery has a failed attempt recorded before its 2xx.
      const retried = new Set(
        (
          await sql<{ event_id: string }>(
            `select d.event_id from webhook_deliveries d
              where d.tenant_id = ? and exists (select 1 from webhook_attempts a where a.delivery_id = d.id and a.http_status is distinct from 200)`,
            [owner.tenantId],
          )
        ).map((r) => r.event_id),
      );
      const unexplained = copies
        .map((c) => c.headers['webhook-id'] as string)
        .filter((id) => !madeBeforeKill.has(id) && !retried.has(id));
      expect(unexplained).toEqual([]);

      // In order per resource: each customer's events first received as created, v1, v2.
      const perCustomer = new Map<string, string[]>();
      for (const { type, data } of firstOf.values())
        perCustomer.set(data.id, [...(perCustomer.get(data.id) ?? []), `${type} ${data.name.split(' ')[2]}`]);
      for (const id of customers)
        expect(perCustomer.get(id)).toEqual(['customer.created v0', 'customer.updated v1', 'customer.updated v2']);

      // The log: every delivery delivered once, its attempts counter equal to its attempt rows, the last a 2xx.
      const log = await sql<{ attempts: number; rows: number; last_status: number; status: string }>(
        `select d.status, d.attempts,
                (select count(*)::int from webhook_attempts a where a.delivery_id = d.id) as rows,
                (select a.http_status from webhook_attempts a where a.delivery_id = d.id order by a.created_at desc, a.id desc limit 1) as last_status
           from webhook_deliveries d where d.tenant_id = ?`,
        [owner.tenantId],
      );
      expect(log).toHaveLength(EVENTS);
      for (const d of log) {
        expect(d).toMatchObject({ status: 'delivered', last_status: 200 });
        expect(d.rows).toBe(d.attempts);
      }
      // What the organisation sees in its delivery log.
      const page = await stack.http.get('/api/webhooks/deliveries?status=pending').set(owner.auth).expect(200);
      expect(page.body.items).toEqual([]);
      expect(inFlightAtKill).toBeGreaterThanOrEqual(2);
    },
    scaled(300_000),
  );
});
