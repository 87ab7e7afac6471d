import { Webhook } from 'standardwebhooks';
import { WebhookDelivery, WebhookEvent } from '../../entities/webhooks/webhook';
import { makeCustomer } from '../support/crm';
import { addMember, createAccount, type Account } from '../support/factories';
import { expectProblem, mailsTo } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { scaled } from '../support/timeScale';
import { eventually } from '../support/wait';
import { startReceiver } from '../support/webhookReceiver';

/**
 * Customers' webhooks through the API, against a local receiver (exempt from the address policy by
 * WEBHOOK_ALLOWED_HOSTS) and the `standardwebhooks` package, the specification's own implementation.
 */
describe('webhooks', () => {
  let stack: TestStack;
  let owner: Account;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    // /flaky answers 500 once, /dead always, /slow never; everything else 200.
    receiver = await startReceiver((path, n) =>
      path.startsWith('/flaky') && n === 1 ? 500 : path === '/dead' ? 503 : path === '/slow' ? 'hang' : 200,
    );
    stack = await startStack({
      env: {
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_MAX_ENDPOINTS: '3',
        WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2',
        WEBHOOK_DISABLE_AFTER_HOURS: '0',
        WEBHOOK_TIMEOUT_MS: String(scaled(1500)),
        WEBHOOK_ENDPOINT_CONCURRENCY: '2',
      },
    });
    owner = await createAccount(stack);
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  const endpointFor = async (account: Account, path: string, eventTypes: string[] = []) => {
    const res = await stack.http
      .post('/api/webhooks/endpoints')
      .set(account.auth)
      .send({ url: receiver.url(path), eventTypes })
      .expect(201);
    return res.body as { id: string; secret: string };
  };
  const envelopes = (path: string) =>
    receiver.on(path).map((r) => ({
      ...(JSON.parse(r.body) as { id: string; type: string; data: { id: string; name: string } }),
      headers: r.headers,
    }));
  const deliveriesOf = (endpointId: string) =>
    stack.services.orm.em.fork().find(WebhookDelivery, { endpointId }, { filters: false, orderBy: { eventId: 'asc' } });

  describe('delivery', () => {
    it('delivers a committed change signed per Standard Webhooks, and nothing for a rolled-back one', async () => {
      const org = await createAccount(stack);
      const endpoint = await endpointFor(org, '/crm', ['customer.created']);
      const ada = await makeCustomer(stack, org, { name: 'Ada', externalId: 'x-1' });
      // Refused by the unique externalId: its event is rolled back with it.
      await stack.http
        .post('/api/customers')
        .set(org.auth)
        .send({ kind: 'person', name: 'Twin', externalId: 'x-1' })
        .expect(409);
      const grace = await makeCustomer(stack, org, { name: 'Grace' });
      await eventually(() => receiver.on('/crm').length >= 2, { what: 'two deliveries' });
      const got = envelopes('/crm');
      // Two resources: their deliveries may arrive in any order.
      expect(got.map((e) => [e.type, e.data.id, e.data.name]).sort((x, y) => x[2].localeCompare(y[2]))).toEqual([
        ['customer.created', ada.id, 'Ada'],
        ['customer.created', grace.id, 'Grace'],
      ]);
      const hook = new Webhook(endpoint.secret);
      for (const r of receiver.on('/crm'))
        expect(hook.verify(r.body, r.headers as Record<string, string>)).toMatchObject({ type: 'customer.created' });
      const events = await stack.services.orm.em
        .fork()
        .count(WebhookEvent, { tenantId: org.tenantId }, { filters: false });
      expect(events).toBe(2);
    });

    it('retries a failed attempt with the same webhook-id, and keeps the order of one resource', async () => {
      const org = await createAccount(stack);
      const endpoint = await endpointFor(org, '/flaky-order');
      const c = await makeCustomer(stack, org, { name: 'v0' });
      for (const name of ['v1', 'v2', 'v3'])
        await stack.http.patch(`/api/customers/${c.id}`).set(org.auth).send({ name }).expect(200);
      await eventually(() => envelopes('/flaky-order').filter((e) => e.data.name === 'v3').length === 1, {
        what: 'the last update delivered',
      });
      const got = envelopes('/flaky-order');
      // The first attempt (500) and its retry carry the same webhook-id; the updates follow it, in order.
      expect(got.map((e) => e.data.name)).toEqual(['v0', 'v0', 'v1', 'v2', 'v3']);
      expect(got[0].headers['webhook-id']).toBe(got[1].headers['webhook-id']);
      // Recorded right after the answer.
      const rows = await eventually(async () => {
        const found = await deliveriesOf(endpoint.id);
        return found.every((d) => d.status === 'delivered') ? found : null;
      });
      expect(rows.map((d) => [d.status, d.attempts])).toEqual([
        ['delivered', 2],
        ['delivered', 1],
        ['delivered', 1],
        ['delivered', 1],
      ]);
    });

    it('signs with both secrets during the grace period of a rotation', async () => {
      const org = await createAccount(stack);
      const endpoint = await endpointFor(org, '/rotated');
      const rotated = await stack.http
        .post(`/api/webhooks/endpoints/${endpoint.id}/rotate-secret`)
        .set(org.auth)
        .expect(200);
      await makeCustomer(stack, org);
      const [r] = await eventually(() => (receiver.on('/rotated').length ? receiver.on('/rotated') : null));
      expect(String(r.headers['webhook-signature']).split(' ')).toHaveLength(2);
      for (const secret of [endpoint.secret, rotated.body.secret as string])
        expect(() => new Webhook(secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    });

    it('fails a delivery after its retries, disables the endpoint failing since and mails the admins', async () => {
      const org = await createAccount(stack);
      const endpoint = await endpointFor(org, '/dead');
      await makeCustomer(stack, org);
      const [failed] = await eventually(
        async () => {
          const rows = await deliveriesOf(endpoint.id);
          return rows[0]?.status === 'failed' ? rows : null;
        },
        { what: 'the delivery failed for good' },
      );
      expect(failed.attempts).toBe(4);
      const shown = await stack.http.get(`/api/webhooks/endpoints/${endpoint.id}`).set(org.auth).expect(200);
      expect(shown.body).toMatchObject({ enabled: false, disabledReason: 'failing' });
      const mails = await eventually(async () => {
        const found = await mailsTo(stack, org.email);
        return found.find((m) => m.subject === 'A webhook endpoint was disabled') ?? null;
      });
      expect(mails.text).toContain(receiver.url('/dead'));
    });

    it("never delays one organisation's deliveries behind another's slow endpoint", async () => {
      const slowOrg = await createAccount(stack);
      await endpointFor(slowOrg, '/slow');
      for (let i = 0; i < 6; i++) await makeCustomer(stack, slowOrg, { name: `slow ${i}` });
      await eventually(() => receiver.hanging >= 2, { what: 'the slow endpoint holding requests' });
      const quickOrg = await createAccount(stack);
      await endpointFor(quickOrg, '/quick');
      await makeCustomer(stack, quickOrg, { name: 'quick' });
      await eventually(() => receiver.on('/quick').length === 1, { what: 'the quick delivery' });
      // The slow endpoint held at most WEBHOOK_ENDPOINT_CONCURRENCY requests at once, and still does.
      expect(receiver.hanging).toBeLessThanOrEqual(2);
    });
  });

  describe('log and replay', () => {
    it('sends a test event, shows its attempts, replays one delivery and the failed ones of a period', async () => {
      const org = await createAccount(stack);
      const endpoint = await endpointFor(org, '/dead');
      const since = new Date(Date.now() - 1000).toISOString();
      const test = await stack.http.post(`/api/webhooks/endpoints/${endpoint.id}/test`).set(org.auth).expect(202);
      expect(test.body).toMatchObject({ eventType: 'webhook.test', status: 'pending' });
      const failed = await eventually(async () => {
        const res = await stack.http
          .get('/api/webhooks/deliveries')
          .query({ endpointId: endpoint.id, status: 'failed' })
          .set(org.auth)
          .expect(200);
        return res.body.items.length === 1 ? res.body.items[0] : null;
      });
      const detail = await stack.http.get(`/api/webhooks/deliveries/${failed.id}`).set(org.auth).expect(200);
      expect(detail.body.attemptLog).toHaveLength(4);
      expect(detail.body.attemptLog[0]).toMatchObject({ httpStatus: 503, responseExcerpt: 'no: 503' });

      const replayed = await stack.http.post(`/api/webhooks/deliveries/${failed.id}/replay`).set(org.auth).expect(202);
      expect(replayed.body.status).toBe('pending');
      await eventually(() => receiver.on('/dead').filter((r) => r.headers['webhook-id'] === failed.eventId).length > 4);
      await eventually(async () => {
        const res = await stack.http.get(`/api/webhooks/deliveries/${failed.id}`).set(org.auth);
        return res.body.status === 'failed';
      });
      const bulk = await stack.http.post('/api/webhooks/replay').set(org.auth).send({ since }).expect(202);
      expect(bulk.body).toEqual({ replayed: 1 });
    });

    it('documents every event type in the webhooks section of the OpenAPI document', async () => {
      const doc = await stack.http.get('/openapi.json').expect(200);
      expect(Object.keys(doc.body.webhooks)).toEqual(
        expect.arrayContaining(['customer.created', 'deal.won', 'webhook.test']),
      );
    });
  });

  describe('endpoints', () => {
    it('creates an endpoint with its secret shown once, lists it without, rotates and deletes it', async () => {
      const created = await stack.http
        .post('/api/webhooks/endpoints')
        .set(owner.auth)
        .send({ url: 'http://127.0.0.1:9/none', eventTypes: ['customer.created'], description: 'CRM sync' })
        .expect(201);
      expect(created.headers['cache-control']).toBe('no-store');
      expect(created.body).toMatchObject({ enabled: true, eventTypes: ['customer.created'], disabledReason: null });
      const secret = created.body.secret as string;
      expect(() => new Webhook(secret)).not.toThrow();
      const id = created.body.id as string;

      const list = await stack.http.get('/api/webhooks/endpoints').set(owner.auth).expect(200);
      expect(list.body.items.map((e: { id: string }) => e.id)).toContain(id);
      expect(JSON.stringify(list.body)).not.toContain(secret);

      const rotated = await stack.http.post(`/api/webhooks/endpoints/${id}/rotate-secret`).set(owner.auth).expect(200);
      expect(rotated.body.secret).not.toBe(secret);
      expect(Date.parse(rotated.body.previousSecretExpiresAt)).toBeGreaterThan(Date.now() + 23 * 3600_000);

      const edited = await stack.http
        .patch(`/api/webhooks/endpoints/${id}`)
        .set(owner.auth)
        .send({ enabled: false })
        .expect(200);
      expect(edited.body).toMatchObject({ enabled: false, disabledReason: 'manual' });

      await stack.http.delete(`/api/webhooks/endpoints/${id}`).set(owner.auth).expect(204);
      await stack.http.get(`/api/webhooks/endpoints/${id}`).set(owner.auth).expect(404);
    });

    it.each([
      ['a loopback address', 'https://127.0.0.2/x'],
      ['the metadata address', 'https://169.254.169.254/latest/meta-data'],
      ['a private address', 'https://10.0.0.8/x'],
      ['an IPv6 loopback', 'https://[::1]/x'],
      ['localhost', 'https://localhost/x'],
      ['plain http outside development', 'http://203.0.113.10/x'],
    ])('refuses %s', async (_what, url) => {
      const res = await stack.http.post('/api/webhooks/endpoints').set(owner.auth).send({ url });
      expectProblem(res, 422, 'webhook_url_refused');
    });

    it('is for admins, and an organisation has at most WEBHOOK_MAX_ENDPOINTS', async () => {
      const member = await addMember(stack, owner);
      await stack.http.get('/api/webhooks/endpoints').set(member.auth).expect(403);
      const other = await createAccount(stack);
      for (let i = 0; i < 3; i++)
        await stack.http
          .post('/api/webhooks/endpoints')
          .set(other.auth)
          .send({ url: 'https://203.0.113.10/x' })
          .expect(201);
      const res = await stack.http
        .post('/api/webhooks/endpoints')
        .set(other.auth)
        .send({ url: 'https://203.0.113.10/x' });
      expectProblem(res, 409, 'webhook_endpoint_limit');
    });
  });
});
