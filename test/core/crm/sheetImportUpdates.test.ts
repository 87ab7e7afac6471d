import { runImport } from '../../../domain/core/crm/imports/runImport';
import { makeCustomer } from '../../support/crm';
import { createAccount, type Account } from '../../support/factories';
import { startStack, type TestStack } from '../../support/stack';

/** A spreadsheet import with duplicates: 'update': the matched customers take the fields the file gives. */
describe("CRM spreadsheet import, duplicates: 'update'", () => {
  let stack: TestStack;
  let org: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await createAccount(stack);
    await stack.http
      .put('/api/customers/fields/seats')
      .set(org.auth)
      .send({ label: 'Seats', type: 'number' })
      .expect(201);
    await stack.http.put('/api/customers/fields/plan').set(org.auth).send({ label: 'Plan', type: 'text' }).expect(201);
  });
  afterAll(() => stack.close());

  const upload = async (csv: string) =>
    (
      await stack.http
        .post('/api/customers/imports/uploads')
        .set(org.auth)
        .set('Content-Type', 'text/csv')
        .send(Buffer.from(csv))
        .expect(201)
    ).body.id as string;

  it('updates the matched customer with the fields in the file only, reported per row in the dry run and the result', async () => {
    const ada = await makeCustomer(stack, org, {
      name: 'Ada L',
      emails: [{ value: 'ada@example.test' }],
      phones: [{ value: '+33 6 11 11 11 11' }],
      tags: ['old'],
      custom: { seats: 1, plan: 'gold' },
    });
    const id = await upload(
      'Name,Email,Seats,Tags\n' +
        'Ada Lovelace,ada@example.test,4,vip\n' +
        'New Person,new@example.test,2,\n' +
        'Ada Again,ada@example.test,5,\n',
    );
    const mapping = ['name', 'email', 'custom.seats', 'tags'];
    const dry = await stack.http
      .post(`/api/customers/imports/uploads/${id}/check`)
      .set(org.auth)
      .send({ mapping, duplicates: 'update' })
      .expect(200);
    expect(dry.body).toMatchObject({ rows: 3, valid: 2, invalid: 1, matched: 2, updating: 1 });
    expect(dry.body.matches).toEqual([{ index: 2, customerId: ada.id, reasons: ['email'], action: 'update' }]);
    expect(dry.body.errors).toEqual([
      expect.objectContaining({ index: 4, field: 'duplicate', message: expect.stringContaining('line 2 updates') }),
    ]);
    await stack.http
      .post(`/api/customers/imports/uploads/${id}/import`)
      .set(org.auth)
      .send({ mapping, duplicates: 'update' })
      .expect(422);
    const started = await stack.http
      .post(`/api/customers/imports/uploads/${id}/import`)
      .set(org.auth)
      .send({ mapping, duplicates: 'update', skipBadRows: true })
      .expect(202);
    await runImport(stack.services, { importId: started.body.id, tenantId: org.tenantId, kind: 'customers' });
    const report = await stack.http.get(`/api/customers/imports/${started.body.id}`).set(org.auth).expect(200);
    expect(report.body).toMatchObject({ status: 'completed', created: 1, updated: 1, failed: 1 });
    expect(report.body.matches).toEqual([{ index: 2, customerId: ada.id, reasons: ['email'], action: 'update' }]);
    const after = await stack.http.get(`/api/customers/${ada.id}`).set(org.auth).expect(200);
    expect(after.body).toMatchObject({
      name: 'Ada Lovelace',
      tags: ['vip'],
      custom: { seats: 4, plan: 'gold' },
      phones: [expect.objectContaining({ value: '+33 6 11 11 11 11' })],
      emails: [expect.objectContaining({ value: 'ada@example.test' })],
    });
    // The search finds it by its new name and its kept phone.
    const found = await stack.http.get('/api/customers').set(org.auth).query({ q: 'lovelace' }).expect(200);
    expect(found.body.items.map((c: { id: string }) => c.id)).toContain(ada.id);
    const byPhone = await stack.http.get('/api/customers').set(org.auth).query({ q: '0611111111' }).expect(200);
    expect(byPhone.body.items.map((c: { id: string }) => c.id)).toContain(ada.id);
    // Undo removes what the import created, not the customer it updated.
    await stack.http.post(`/api/customers/imports/${started.body.id}/undo`).set(org.auth).expect(200);
    await stack.http.get(`/api/customers/${ada.id}`).set(org.auth).expect(200);
  });

  it('refuses an unknown duplicates policy', async () => {
    const id = await upload('Name\nX\n');
    await stack.http
      .post(`/api/customers/imports/uploads/${id}/check`)
      .set(org.auth)
      .send({ mapping: ['name'], duplicates: 'merge' })
      .expect(400);
  });
});
