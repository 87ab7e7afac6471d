import { tenantContext } from '../../../domain/context';
import { findOrCreateCustomer } from '../../../domain/core/crm/findOrCreateCustomer';
import { getCustomer } from '../../../domain/core/crm/getCustomer';
import { createAccount } from '../../support/factories';
import { startStack, type TestStack } from '../../support/stack';

describe('CRM: customers for other modules', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  it('finds or creates a customer by primary e-mail, once under concurrency, per tenant', async () => {
    const a = await createAccount(stack);
    const b = await createAccount(stack);
    const ctxA = () => tenantContext(stack.services, a.tenantId, a.user.id);
    const made = await Promise.all(
      [1, 2, 3].map(() =>
        findOrCreateCustomer(ctxA(), { name: 'Ada Lovelace', email: ' Ada@Example.test ', phone: '+33 6 12 34 56 78' }),
      ),
    );
    expect(new Set(made.map((c) => c.id)).size).toBe(1);
    expect(made[0]).toMatchObject({
      kind: 'person',
      name: 'Ada Lovelace',
      primaryEmail: 'ada@example.test',
      phones: [{ type: 'work', value: '+33 6 12 34 56 78', primary: true }],
    });
    const again = await findOrCreateCustomer(ctxA(), { name: 'Someone else', email: 'ada@example.test' });
    expect(again.id).toBe(made[0].id);
    expect(again.name).toBe('Ada Lovelace');
    expect((await getCustomer(ctxA(), made[0].id)).id).toBe(made[0].id);

    const ctxB = tenantContext(stack.services, b.tenantId, b.user.id);
    await expect(getCustomer(ctxB, made[0].id)).rejects.toMatchObject({ status: 404 });
    await expect(getCustomer(ctxB, 'not-a-uuid')).rejects.toMatchObject({ status: 404 });
    const theirs = await findOrCreateCustomer(ctxB, { name: 'Ada', email: 'ada@example.test' });
    expect(theirs.id).not.toBe(made[0].id);
    await expect(findOrCreateCustomer(ctxB, { name: 'X', email: 'nope' })).rejects.toMatchObject({ status: 400 });
  });
});
