import { Webhook } from 'standardwebhooks';
import { addMember, createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

/**
 * Customers' webhooks through the API, against a local receiver (exempt from the address policy by
 * WEBHOOK_ALLOWED_HOSTS) and the `standardwebhooks` package, the specification's own implementation.
 */
describe('webhooks', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({
      env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_MAX_ENDPOINTS: '3' },
    });
    owner = await createAccount(stack);
  });
  afterAll(() => stack?.close());

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
