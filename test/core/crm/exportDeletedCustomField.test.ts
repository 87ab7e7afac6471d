import { createAccount, type Account } from '../../support/factories';
import { makeCustomer } from '../../support/crm';
import { startStack, type TestStack } from '../../support/stack';

/**
 * DELETE /api/customers/fields/{key}: "Its values disappear from answers at once and are purged from the
 * customers in the background." GET /connect/export hides them at once too, before the purge job has run (workers
 * off here, as when the queue is backed up or Redis is down: the job waits in the outbox).
 */
describe('CRM regression: export after a custom field is deleted', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
  });
  afterAll(() => stack.close());

  const exportText = async (query: string) => {
    const res = await stack.http
      .get(`/connect/export?${query}`)
      .set(owner.auth)
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (chunk: string) => (text += chunk));
        r.on('end', () => done(null, text));
      });
    expect(res.status).toBe(200);
    return res.body as string;
  };

  it('does not export the values of a deleted custom field', async () => {
    await stack.http
      .put('/api/customers/fields/discount_notes')
      .set(owner.auth)
      .send({ label: 'Discount notes', type: 'text' })
      .expect(201);
    const customer = await makeCustomer(stack, owner, {
      name: 'Umbrella',
      custom: { discount_notes: 'max 40% approved by CFO' },
    });
    await stack.http.delete('/api/customers/fields/discount_notes').set(owner.auth).expect(204);
    // The API hides it at once, as documented.
    expect((await stack.http.get(`/api/customers/${customer.id}`).set(owner.auth)).body.custom).toEqual({});

    const line = (await exportText('resource=customers')).split('\n').find((l) => l.includes(customer.id))!;
    expect(JSON.parse(line).custom).toEqual({});
    const csv = await exportText('format=csv&resource=customers');
    expect(csv).not.toContain('max 40% approved by CFO');
  });

  it('exports timestamps in ISO 8601 like every other answer', async () => {
    const customer = await makeCustomer(stack, owner, { name: 'Hooli' });
    const line = (await exportText('resource=customers')).split('\n').find((l) => l.includes(customer.id))!;
    const row = JSON.parse(line) as { createdAt: string; updatedAt: string };
    expect(row.createdAt).toBe(customer.createdAt);
    expect(row.updatedAt).toBe(customer.updatedAt);
  });
});
