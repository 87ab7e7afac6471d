import { createAccount, type Account } from '../../support/factories';
import { makeCustomer } from '../../support/crm';
import { startStack, type TestStack } from '../../support/stack';

/**
 * PATCH /api/customers/activities/{id} documents: "Completing a call, e-mail or meeting updates the customer's
 * lastContactAt; the health score follows." Also for a call planned for later (dueAt in the future) that the rep
 * makes early and marks done: a done activity placed in the future is placed at its completion time.
 */
describe('CRM regression: completing a planned call early', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
  });
  afterAll(() => stack.close());

  it('sets lastContactAt when a planned call is completed before its due time', async () => {
    const customer = await makeCustomer(stack, owner, { name: 'Globex' });
    const planned = await stack.http
      .post(`/api/customers/${customer.id}/activities`)
      .set(owner.auth)
      .send({ type: 'call', subject: 'Discovery call', dueAt: new Date(Date.now() + 2 * 3600_000).toISOString() });
    expect(planned.status).toBe(201);
    expect(planned.body.completedAt).toBeNull();

    const done = await stack.http
      .patch(`/api/customers/activities/${planned.body.id}`)
      .set(owner.auth)
      .send({ completed: true });
    expect(done.status).toBe(200);
    expect(done.body.completedAt).not.toBeNull();

    const after = await stack.http.get(`/api/customers/${customer.id}`).set(owner.auth).expect(200);
    expect(after.body.lastContactAt).toBe(done.body.completedAt);
    expect(done.body.occurredAt).toBe(done.body.completedAt);
  });

  it('sets lastContactAt for a meeting logged as done with a planned (future) dueAt', async () => {
    const customer = await makeCustomer(stack, owner, { name: 'Initech' });
    const res = await stack.http
      .post(`/api/customers/${customer.id}/activities`)
      .set(owner.auth)
      .send({
        type: 'meeting',
        subject: 'Demo',
        dueAt: new Date(Date.now() + 3600_000).toISOString(),
        completed: true,
      });
    expect(res.status).toBe(201);
    expect(res.body.completedAt).not.toBeNull();
    const after = await stack.http.get(`/api/customers/${customer.id}`).set(owner.auth).expect(200);
    expect(after.body.lastContactAt).not.toBeNull();
  });
});
