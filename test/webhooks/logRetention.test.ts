import { v7 as uuidv7 } from 'uuid';
import { pruneWebhookLog } from '../../domain/webhooks/pruneWebhookLog';
import { webhookLogPruneQueue } from '../../queues/webhooks';
import { createAccount, type Account } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

const DAY = 86_400_000;

/**
 * The nightly prune of the webhook log: settled deliveries whose last attempt is past WEBHOOK_LOG_RETENTION_DAYS
 * go with their attempts, then events left without a delivery; pending deliveries stay however old, in batches.
 */
describe('webhook log retention', () => {
  let stack: TestStack;
  let owner: Account;
  let endpointId: string;
  beforeAll(async () => {
    stack = await startStack({
      env: { WEBHOOK_LOG_RETENTION_DAYS: '10', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
      workers: ['webhook-log-prune'],
    });
    owner = await createAccount(stack);
    const res = await stack.http
      .post('/api/webhooks/endpoints')
      .set(owner.auth)
      .send({ url: 'http://127.0.0.1:9/in', eventTypes: [] })
      .expect(201);
    endpointId = res.body.id as string;
  });
  afterAll(() => stack.close());

  const sql = <T extends object>(text: string, params: unknown[] = []) =>
    stack.services.orm.em.getConnection().execute<T[]>(text, params);
  const ago = (days: number) => new Date(Date.now() - days * DAY);

  /** An event made `createdDaysAgo`, one delivery of it with its attempts, the last `lastDaysAgo` (null: none). */
  async function logged(
    status: 'pending' | 'delivered' | 'failed',
    createdDaysAgo: number,
    lastDaysAgo: number | null,
    attempts = 2,
  ): Promise<{ event: string; delivery: string }> {
    const created = ago(createdDaysAgo);
    const event = uuidv7({ msecs: created.getTime() });
    const delivery = uuidv7({ msecs: created.getTime() });
    await sql(
      `insert into webhook_events (id, tenant_id, created_at, type, resource, payload, fanned_out_at) values (?, ?, ?, 'customer.created', ?, '{"big":"payload"}', ?)`,
      [event, owner.tenantId, created, `customer:${event}`, created],
    );
    const last = lastDaysAgo === null ? null : ago(lastDaysAgo);
    await sql(
      `insert into webhook_deliveries (id, tenant_id, created_at, endpoint_id, event_id, event_type, resource, status, attempts, next_attempt_at, last_attempt_at, last_http_status, delivered_at) values (?, ?, ?, ?, ?, 'customer.created', ?, ?, ?, ?, ?, ?, ?)`,
      [
        delivery,
        owner.tenantId,
        created,
        endpointId,
        event,
        `customer:${event}`,
        status,
        last ? attempts : 0,
        status === 'pending' ? new Date() : null,
        last,
        last ? (status === 'delivered' ? 200 : 500) : null,
        status === 'delivered' ? last : null,
      ],
    );
    for (let i = 0; last && i < attempts; i++)
      await sql(
        `insert into webhook_attempts (id, tenant_id, created_at, delivery_id, http_status, duration_ms, response_excerpt) values (?, ?, ?, ?, 500, 12, 'no')`,
        [uuidv7({ msecs: last.getTime() - (attempts - i) * 1000 }), owner.tenantId, last, delivery],
      );
    return { event, delivery };
  }

  const ids = async (table: string) =>
    (await sql<{ id: string }>(`select id from ${table} where tenant_id = ? order by id`, [owner.tenantId])).map(
      (r) => r.id,
    );
  const attemptsOf = async (delivery: string) =>
    (await sql<{ n: number }>('select count(*)::int as n from webhook_attempts where delivery_id = ?', [delivery]))[0]
      .n;

  it('deletes settled deliveries past the retention with their attempts and events; keeps pending and recent ones', async () => {
    const oldDelivered = await logged('delivered', 40, 40);
    const oldFailed = await logged('failed', 30, 12, 8);
    const oldPending = await logged('pending', 60, 59, 3);
    const oldNeverTried = await logged('pending', 45, null);
    // Created long ago, replayed recently: its last attempt is within the retention.
    const replayed = await logged('delivered', 50, 2);
    const recent = await logged('failed', 5, 4);
    // More than one batch of old settled deliveries.
    const bulk = await Promise.all(Array.from({ length: 25 }, () => logged('delivered', 20, 20, 1)));

    expect(await pruneWebhookLog(stack.services, new Date(), 10)).toEqual({ deliveries: 27, events: 27 });

    const kept = [oldPending, oldNeverTried, replayed, recent];
    expect(await ids('webhook_deliveries')).toEqual(kept.map((k) => k.delivery).sort());
    expect(await ids('webhook_events')).toEqual(kept.map((k) => k.event).sort());
    for (const gone of [oldDelivered, oldFailed, ...bulk]) expect(await attemptsOf(gone.delivery)).toBe(0);
    expect(await attemptsOf(oldPending.delivery)).toBe(3);
    expect(await attemptsOf(replayed.delivery)).toBe(2);
    // The log answers without them; a pending one is still there with its attempts.
    const log = await stack.http.get('/api/webhooks/deliveries').set(owner.auth).expect(200);
    expect((log.body.items as { id: string }[]).map((d) => d.id).sort()).toEqual(kept.map((k) => k.delivery).sort());
    const pending = await stack.http.get(`/api/webhooks/deliveries/${oldPending.delivery}`).set(owner.auth);
    expect(pending.body).toMatchObject({ status: 'pending', attempts: 3 });
    expect(pending.body.attemptLog).toHaveLength(3);
    await stack.http.get(`/api/webhooks/deliveries/${oldDelivered.delivery}`).set(owner.auth).expect(404);
  });

  it('runs as the clock job, and a second run finds nothing', async () => {
    const old = await logged('failed', 15, 15);
    const run = async (slot: string) => {
      const job = await stack.services.queues.add(
        webhookLogPruneQueue,
        { slot },
        { jobId: `webhook-log-prune-${slot}` },
      );
      return eventually(
        async () =>
          (await stack.services.queues.get(webhookLogPruneQueue).getJob(job.id!))?.returnvalue as
            { deliveries: number; events: number } | undefined,
        { what: 'the prune job' },
      );
    };
    expect(await run('a')).toEqual({ deliveries: 1, events: 1 });
    expect(await ids('webhook_deliveries')).not.toContain(old.delivery);
    expect(await run('b')).toEqual({ deliveries: 0, events: 0 });
  });
});
