import { createAccount, type Account } from '../../support/factories';
import { makeCustomer } from '../../support/crm';
import { startStack, type TestStack } from '../../support/stack';

/**
 * PATCH /api/customers/{id} documents "custom values merge (null removes one)". Two sales reps editing two
 * different custom fields of the same account at the same moment must both keep their value (updateCustomer
 * locks the row: the edits apply one after the other).
 */
describe('CRM regression: concurrent edits of different custom fields', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
    await stack.http
      .put('/api/customers/fields/industry')
      .set(owner.auth)
      .send({ label: 'Industry', type: 'text' })
      .expect(201);
    await stack.http
      .put('/api/customers/fields/seats')
      .set(owner.auth)
      .send({ label: 'Seats', type: 'number' })
      .expect(201);
  });
  afterAll(() => stack.close());

  it('keeps both values when two PATCHes set different custom keys at once', async () => {
    const lost: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const customer = await makeCustomer(stack, owner, { name: `Acme ${i}` });
      const [a, b] = await Promise.all([
        stack.http
          .patch(`/api/customers/${customer.id}`)
          .set(owner.auth)
          .send({ custom: { industry: 'software' } }),
        stack.http
          .patch(`/api/customers/${customer.id}`)
          .set(owner.auth)
          .send({ custom: { seats: 40 } }),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const after = await stack.http.get(`/api/customers/${customer.id}`).set(owner.auth).expect(200);
      if (after.body.custom.industry !== 'software' || after.body.custom.seats !== 40) lost.push(after.body.custom);
    }
    // Every round ends with { industry: 'software', seats: 40 } (before the fix one 200 was lost).
    expect(lost).toEqual([]);
  });
});
