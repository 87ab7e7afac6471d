import { dedupKeys, legalKey, normaliseName, normalisePhone } from '../../../domain/core/crm/duplicates/normalise';
import { LEGAL_CASES, NAME_CASES, PHONE_CASES } from '../../../domain/core/crm/duplicates/normalise.cases';
import { runImport } from '../../../domain/core/crm/imports/runImport';
import { makeCustomer, makeDeal, makePipeline } from '../../support/crm';
import { createAccount, type Account } from '../../support/factories';
import { startStack, type TestStack } from '../../support/stack';

/**
 * Duplicates and merges of customers: the database's key functions agree with the TypeScript rules, duplicates of
 * a customer and the organisation's pairs with their reasons and scores, a merge moving everything to the survivor
 * (and its dry run), merged ids answering 404 `customer_merged`, and two concurrent merges of the same records.
 */
describe('CRM duplicates and merge', () => {
  let stack: TestStack;
  let org: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await createAccount(stack);
    for (const key of ['siren', 'siret'])
      await stack.http.put(`/api/customers/fields/${key}`).set(org.auth).send({ label: key, type: 'text' }).expect(201);
  });
  afterAll(() => stack.close());

  const sql = <T>(text: string, params: unknown[] = []) => stack.services.orm.em.fork().execute<T[]>(text, params);
  const duplicatesOf = async (id: string) =>
    (await stack.http.get(`/api/customers/${id}/duplicates`).set(org.auth).expect(200)).body.items as {
      customer: { id: string };
      score: number;
      reasons: { kind: string; value: string }[];
    }[];

  it('the database computes the keys as the TypeScript rules do', async () => {
    for (const [raw] of PHONE_CASES) {
      const [row] = await sql<{ v: string | null }>('select crm_dedup_phone(?) as v', [raw]);
      expect([raw, row.v]).toEqual([raw, normalisePhone(raw)]);
    }
    for (const [raw] of NAME_CASES) {
      const [row] = await sql<{ v: string }>('select crm_dedup_name(?) as v', [raw]);
      expect([raw, row.v]).toEqual([raw, normaliseName(raw)]);
    }
    for (const [raw] of LEGAL_CASES) {
      const [row] = await sql<{ v: string | null }>('select crm_dedup_legal(?) as v', [raw]);
      expect([raw, row.v]).toEqual([raw, legalKey(raw)]);
    }
    const parts = {
      emails: [{ value: ' Ada@Example.com' }, { value: 'x' }],
      phones: [{ value: '+33 (0)6 12 34 56 78' }],
      custom: { siret: '732 829 320 00074', vat: 'DE123456789', tva: true },
    };
    const [row] = await sql<{ keys: string[] }>('select crm_dedup_keys(?::jsonb, ?::jsonb, ?::jsonb) as keys', [
      JSON.stringify(parts.emails),
      JSON.stringify(parts.phones),
      JSON.stringify(parts.custom),
    ]);
    expect([...row.keys].sort()).toEqual(dedupKeys(parts));
  });

  it('finds duplicates by e-mail, phone, SIREN and organisation name, with reasons and scores', async () => {
    const ada = await makeCustomer(stack, org, { name: 'Ada Lovelace', emails: [{ value: 'ada@example.com' }] });
    const adaAgain = await makeCustomer(stack, org, {
      name: 'A. Lovelace',
      emails: [{ value: 'ADA@Example.com' }],
      phones: [{ value: '06 12 34 56 78' }],
    });
    const byPhone = await makeCustomer(stack, org, { name: 'Someone', phones: [{ value: '+33 6 12 34 56 78' }] });
    const namesake = await makeCustomer(stack, org, { name: 'Ada Lovelace' });
    const acme = await makeCustomer(stack, org, {
      kind: 'organisation',
      name: 'ACME SAS',
      custom: { siren: '732829320' },
    });
    const acmeSiret = await makeCustomer(stack, org, {
      kind: 'organisation',
      name: 'Widgets and Co',
      custom: { siret: '73282932000074' },
    });
    const acmeName = await makeCustomer(stack, org, { kind: 'organisation', name: 'Acmé' });

    const ofAda = await duplicatesOf(ada.id);
    expect(ofAda.map((d) => d.customer.id)).toEqual([adaAgain.id]);
    // The e-mail, and the similar name that supports it (it would not be a reason alone between persons).
    expect(ofAda[0].reasons).toEqual([
      { kind: 'email', value: 'ada@example.com' },
      { kind: 'name', value: 'a lovelace', similarity: 0.71 },
    ]);
    expect(ofAda[0].score).toBe(95);
    // A person of the same name alone is not a duplicate (namesakes are common).
    expect(ofAda.map((d) => d.customer.id)).not.toContain(namesake.id);

    const ofAgain = await duplicatesOf(adaAgain.id);
    expect(ofAgain.map((d) => d.customer.id)).toEqual([ada.id, byPhone.id]);
    expect(ofAgain[1].reasons).toEqual([{ kind: 'phone', value: '+33612345678' }]);

    const ofAcme = await duplicatesOf(acme.id);
    expect(ofAcme.map((d) => [d.customer.id, d.reasons.map((r) => r.kind)])).toEqual([
      [acmeSiret.id, ['legalId']],
      [acmeName.id, ['name']],
    ]);
    expect(ofAcme[0].reasons[0].value).toBe('732829320');
    expect(ofAcme[1].score).toBe(70);

    // The pairs of the organisation, most likely first, one page at a time.
    const first = await stack.http.get('/api/customers/duplicates?limit=2').set(org.auth).expect(200);
    expect(first.body.items.map((p: { score: number }) => p.score)).toEqual([95, 95]);
    const pair = (p: { customers: { id: string }[] }) => p.customers.map((c) => c.id);
    expect(pair(first.body.items[0])).toEqual([ada.id, adaAgain.id]);
    expect(pair(first.body.items[1])).toEqual([acme.id, acmeSiret.id]);
    const rest = await stack.http
      .get(`/api/customers/duplicates?limit=50&cursor=${first.body.nextCursor}`)
      .set(org.auth)
      .expect(200);
    expect(rest.body.nextCursor).toBeNull();
    expect(rest.body.items.map(pair)).toEqual([
      [adaAgain.id, byPhone.id],
      [acme.id, acmeName.id],
    ]);
    const strong = await stack.http.get('/api/customers/duplicates?minScore=80').set(org.auth).expect(200);
    expect(strong.body.items).toHaveLength(2);
    const bad = await stack.http.get('/api/customers/duplicates?cursor=nope').set(org.auth).expect(400);
    expect(bad.body.code).toBe('validation_failed');
  });

  it('merges into the survivor in one transaction; merged ids answer 404 naming it', async () => {
    const survivor = await makeCustomer(stack, org, {
      name: 'Grace Hopper',
      tags: ['vip'],
      emails: [{ value: 'grace@navy.example', primary: true }],
    });
    const other = await makeCustomer(stack, org, {
      name: 'Grace B. Hopper',
      tags: ['navy'],
      emails: [{ value: 'GRACE@navy.example' }, { value: 'g.hopper@example.com' }],
      phones: [{ value: '06 11 22 33 44' }],
      externalId: 'legacy-7',
    });
    const company = await makeCustomer(stack, org, { kind: 'organisation', name: 'US Navy' });
    await stack.http
      .post(`/api/customers/${other.id}/relations`)
      .set(org.auth)
      .send({ type: 'employee_of', customerId: company.id })
      .expect(201);
    await stack.http
      .post(`/api/customers/${other.id}/relations`)
      .set(org.auth)
      .send({ type: 'partner_of', customerId: survivor.id })
      .expect(201);
    await stack.http
      .post(`/api/customers/${other.id}/activities`)
      .set(org.auth)
      .send({ type: 'call', subject: 'First call' })
      .expect(201);
    const pipeline = await makePipeline(stack, org, 'Merge pipeline');
    const deal = await makeDeal(stack, org, { customerId: other.id, stageId: pipeline.stages[0].id });

    const merge = (body: Record<string, unknown>) =>
      stack.http.post(`/api/customers/${survivor.id}/merge`).set(org.auth).send(body);

    // A dry run answers the result and changes nothing.
    const dry = await merge({ from: [other.id], fields: { name: other.id }, dryRun: true }).expect(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      merged: [other.id],
      moved: { activities: 1, deals: 1, relations: 1 },
    });
    expect(dry.body.customer.name).toBe('Grace B. Hopper');
    await stack.http.get(`/api/customers/${other.id}`).set(org.auth).expect(200);
    expect((await stack.http.get(`/api/deals/${deal.id}`).set(org.auth).expect(200)).body.customerId).toBe(other.id);

    // Bad choices are refused before anything.
    const wrongField = await merge({ from: [other.id], fields: { primaryEmail: other.id } }).expect(400);
    expect(wrongField.body.errors[0].field).toBe('fields.primaryEmail');
    const wrongSource = await merge({ from: [other.id], fields: { name: company.id } }).expect(400);
    expect(wrongSource.body.errors[0].field).toBe('fields.name');
    expect((await merge({ from: [survivor.id] }).expect(400)).body.code).toBe('merge_into_itself');
    await merge({ from: ['0190e0e0-0000-7000-8000-000000000000'] }).expect(404);

    const done = await merge({ from: [other.id], fields: { name: other.id, externalId: other.id } }).expect(200);
    expect(done.body.dryRun).toBe(false);
    expect(done.body.customer).toMatchObject({
      id: survivor.id,
      name: 'Grace B. Hopper',
      externalId: 'legacy-7',
      tags: ['vip', 'navy'],
      primaryEmail: 'grace@navy.example',
    });
    expect(done.body.customer.emails.map((e: { value: string }) => e.value)).toEqual([
      'grace@navy.example',
      'g.hopper@example.com',
    ]);
    expect(done.body.customer.phones).toHaveLength(1);

    const gone = await stack.http.get(`/api/customers/${other.id}`).set(org.auth).expect(404);
    expect(gone.body).toMatchObject({
      code: 'customer_merged',
      errors: [{ field: 'mergedInto', message: survivor.id }],
    });
    expect(gone.headers.link).toBe(`</api/customers/${survivor.id}>; rel="successor-version"`);
    expect((await stack.http.get(`/api/customers/${other.id}/duplicates`).set(org.auth).expect(404)).body.code).toBe(
      'customer_merged',
    );

    expect((await stack.http.get(`/api/deals/${deal.id}`).set(org.auth).expect(200)).body.customerId).toBe(survivor.id);
    const detail = await stack.http.get(`/api/customers/${survivor.id}`).set(org.auth).expect(200);
    // The relation to the company moved; the one between the two disappeared.
    expect(detail.body.relations.map((r: { customerId: string; type: string }) => [r.customerId, r.type])).toEqual([
      [company.id, 'employee_of'],
    ]);
    const [{ n: activities }] = await sql<{ n: number }>(
      `select count(*)::int as n from crm_activities where customer_id = ?`,
      [survivor.id],
    );
    expect(activities).toBe(2); // the call, and the merge's note
    const list = await stack.http.get('/api/customers?limit=200').set(org.auth).expect(200);
    expect(list.body.items.map((c: { id: string }) => c.id)).not.toContain(other.id);
    const search = await stack.http.get('/api/customers?q=hopper').set(org.auth).expect(200);
    expect(search.body.items.map((c: { id: string }) => c.id)).toEqual([survivor.id]);
    const [entry] = await sql<{ data: { merged: string[] } }>(
      `select data from audit_entries where action = 'crm.customers.merged' and target_id = ?`,
      [survivor.id],
    );
    expect(entry.data.merged).toEqual([other.id]);

    // A merged record cannot be merged again, nor brought back by a statement.
    expect((await merge({ from: [other.id] }).expect(409)).body.code).toBe('customer_merged');
    await expect(
      sql('update crm_customers set merged_into = null, merged_at = null where id = ?', [other.id]),
    ).rejects.toThrow(/cannot be brought back/);
  });

  it('of two concurrent merges of the same records one wins, the other is 409', async () => {
    const a = await makeCustomer(stack, org, { name: 'Race A', emails: [{ value: 'race@example.com' }] });
    const b = await makeCustomer(stack, org, { name: 'Race B', emails: [{ value: 'race@example.com' }] });
    const [x, y] = await Promise.all([
      stack.http
        .post(`/api/customers/${a.id}/merge`)
        .set(org.auth)
        .send({ from: [b.id] }),
      stack.http
        .post(`/api/customers/${b.id}/merge`)
        .set(org.auth)
        .send({ from: [a.id] }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    const loser = x.status === 409 ? x : y;
    expect(loser.body.code).toBe('customer_merged');
    const live = await sql<{ id: string }>('select id from crm_customers where id in (?, ?) and merged_into is null', [
      a.id,
      b.id,
    ]);
    expect(live).toHaveLength(1);
  });

  it('a spreadsheet import flags the rows matching existing customers, and may skip them', async () => {
    const known = await makeCustomer(stack, org, { name: 'Known', emails: [{ value: 'known@example.com' }] });
    const firm = await makeCustomer(stack, org, { kind: 'organisation', name: 'Initech SARL' });
    const csv =
      'name,kind,email,phone\nKnown again,person,KNOWN@example.com,\nInitech,organisation,,\nNew one,person,new@example.com,\n';
    const upload = await stack.http
      .post('/api/customers/imports/uploads')
      .set(org.auth)
      .set('Content-Type', 'text/csv')
      .send(Buffer.from(csv))
      .expect(201);
    const mapping = ['name', 'kind', 'email', 'phone'];
    const check = await stack.http
      .post(`/api/customers/imports/uploads/${upload.body.id}/check`)
      .set(org.auth)
      .send({ mapping })
      .expect(200);
    expect(check.body).toMatchObject({ valid: 3, invalid: 0, matched: 2 });
    expect(check.body.matches).toEqual([
      { index: 2, customerId: known.id, reasons: ['email'], action: 'create' },
      { index: 3, customerId: firm.id, reasons: ['name'], action: 'create' },
    ]);
    const started = await stack.http
      .post(`/api/customers/imports/uploads/${upload.body.id}/import`)
      .set(org.auth)
      .send({ mapping, duplicates: 'skip' })
      .expect(202);
    await runImport(stack.services, { importId: started.body.id, tenantId: org.tenantId, kind: 'customers' });
    const report = await stack.http.get(`/api/customers/imports/${started.body.id}`).set(org.auth).expect(200);
    expect(report.body).toMatchObject({ status: 'completed', created: 1, failed: 2 });
    expect(report.body.errors.map((e: { index: number; field: string }) => [e.index, e.field])).toEqual([
      [2, 'duplicate'],
      [3, 'duplicate'],
    ]);
  });

  it("another organisation's customers are unknown", async () => {
    const other = await createAccount(stack);
    const mine = await makeCustomer(stack, org, { name: 'Mine' });
    const theirs = await makeCustomer(stack, other, { name: 'Theirs' });
    await stack.http.get(`/api/customers/${mine.id}/duplicates`).set(other.auth).expect(404);
    await stack.http
      .post(`/api/customers/${theirs.id}/merge`)
      .set(other.auth)
      .send({ from: [mine.id] })
      .expect(404);
    await stack.http
      .post(`/api/customers/${mine.id}/merge`)
      .set(other.auth)
      .send({ from: [theirs.id] })
      .expect(404);
  });
});
