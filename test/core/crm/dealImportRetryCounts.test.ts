import { runImport } from '../../../domain/core/crm/imports/runImport';
import { createAccount, type Account } from '../../support/factories';
import { hubKey, makeCustomer, makePipeline } from '../../support/crm';
import { startStack, type TestStack } from '../../support/stack';

/**
 * A deal import whose job failed while recording its outcome and was retried must still report the deals it
 * created as created: the upsert, the outcome and the deletion of the payload commit in one transaction
 * (before the fix the deals were committed first, and the retry counted them created: 0 / updated: N).
 */
describe('CRM regression: deal import counts after a retried job', () => {
  let stack: TestStack;
  let owner: Account;
  let key: string;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
    key = await hubKey(stack, owner);
    await makePipeline(stack, owner);
  });
  afterAll(() => stack.close());

  const sql = (q: string, params: unknown[] = []) => stack.services.orm.em.fork().execute(q, params);

  it('reports the deals it created as created, also when its job had to be retried', async () => {
    const customer = await makeCustomer(stack, owner, { externalId: 'cust-1' });
    const accepted = await stack.http
      .post('/api/public/hub/deals/bulk')
      .set('X-Server-API-Key', key)
      .send({
        records: [
          { externalId: 'deal-1', title: 'One', customerExternalId: 'cust-1', amount: 1000, currency: 'EUR' },
          { externalId: 'deal-2', title: 'Two', customerId: customer.id, amount: 2000, currency: 'EUR' },
        ],
      });
    expect(accepted.status).toBe(202);
    const job = { importId: accepted.body.id as string, tenantId: owner.tenantId, kind: 'deals' as const };

    // The first attempt fails after the deals were committed, when it records the outcome (a transient failure).
    // The failing trigger is the owner's to create (the app's role may not alter the schema).
    const ddl = async (q: string) => (await stack.asOwner()).em.fork().execute(q);
    await ddl(
      `create function audit_fail_payload_delete() returns trigger language plpgsql as $$ begin raise exception 'transient failure'; end $$`,
    );
    await ddl(
      `create trigger audit_fail_payload_delete before delete on crm_import_payloads for each row execute function audit_fail_payload_delete()`,
    );
    await expect(runImport(stack.services, job)).rejects.toThrow();
    await ddl(`drop trigger audit_fail_payload_delete on crm_import_payloads`);
    await ddl(`drop function audit_fail_payload_delete()`);

    // BullMQ retries the job.
    await runImport(stack.services, job);
    const [{ n }] = (await sql(
      `select count(*)::int as n from crm_deals where tenant_id = ? and external_id in ('deal-1', 'deal-2')`,
      [owner.tenantId],
    )) as { n: number }[];
    expect(n).toBe(2);
    const status = await stack.http.get(`/api/public/hub/imports/${job.importId}`).set('X-Server-API-Key', key);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ status: 'completed', total: 2, created: 2, updated: 0, failed: 0 });
  });
});
