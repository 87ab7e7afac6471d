import { stringify } from 'csv-stringify/sync';
import { csvExportOptions } from '../../../lib/csv';
import { createAccount, type Account } from '../../support/factories';
import { hubKey, makeCustomer, makePipeline } from '../../support/crm';
import { expectFieldErrors, expectProblem } from '../../support/identity';
import { startStack, TEST_INTERNAL_SECRET, type TestStack } from '../../support/stack';
import { eventually } from '../../support/wait';

describe('CRM integration hub, internal routes and export', () => {
  let stack: TestStack;
  let owner: Account;
  let key: string;
  beforeAll(async () => {
    stack = await startStack();
    owner = await createAccount(stack);
    key = await hubKey(stack, owner);
  });
  afterAll(() => stack.close());

  const bulk = (kind: 'customers' | 'deals', records: unknown[], apiKey = key) =>
    stack.http.post(`/api/public/hub/${kind}/bulk`).set('X-Server-API-Key', apiKey).send({ records });
  const finished = async (id: string) =>
    eventually(
      async () => {
        const res = await stack.http.get(`/api/public/hub/imports/${id}`).set('X-Server-API-Key', key);
        return ['completed', 'failed'].includes(res.body.status) ? res.body : null;
      },
      { timeoutMs: 30_000, what: `import ${id}` },
    );
  const count = async (tenantId: string) =>
    Number(
      (
        await stack.services.orm.em
          .fork()
          .execute<{ n: string }[]>('select count(*) as n from crm_customers where tenant_id = ?', [tenantId])
      )[0].n,
    );

  it('imports 10,000 customers, and a replay updates them without duplicating', async () => {
    const org = await createAccount(stack);
    const orgKey = await hubKey(stack, org);
    await stack.http
      .put('/api/customers/fields/seats')
      .set(org.auth)
      .send({ label: 'Seats', type: 'number' })
      .expect(201);
    const records = Array.from({ length: 10_000 }, (_, i) => ({
      externalId: `ext-${i}`,
      name: `Customer ${i}`,
      roles: ['client'],
      emails: [{ value: `c${i}@example.test` }],
      custom: { seats: i },
    }));
    const started = Date.now();
    const res = await bulk('customers', records, orgKey);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      kind: 'customers',
      status: 'queued',
      total: 10_000,
      statusUrl: `/api/public/hub/imports/${res.body.id}`,
    });
    const done = await eventually(
      async () => {
        const r = await stack.http.get(`/api/public/hub/imports/${res.body.id}`).set('X-Server-API-Key', orgKey);
        return r.body.status === 'completed' ? r.body : null;
      },
      { timeoutMs: 30_000 },
    );
    expect(done).toMatchObject({ created: 10_000, updated: 0, failed: 0, errors: [] });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await count(org.tenantId)).toBe(10_000);
    // The replay, with one name changed: updates, never duplicates.
    records[5] = { ...records[5], name: 'Renamed 5' };
    const again = await bulk('customers', records, orgKey);
    const replayed = await eventually(
      async () => {
        const r = await stack.http.get(`/api/public/hub/imports/${again.body.id}`).set('X-Server-API-Key', orgKey);
        return r.body.status === 'completed' ? r.body : null;
      },
      { timeoutMs: 30_000 },
    );
    expect(replayed).toMatchObject({ created: 0, updated: 10_000, failed: 0 });
    expect(await count(org.tenantId)).toBe(10_000);
    const listed = await stack.http.get('/api/public/hub/customers?externalId=ext-5').set('X-Server-API-Key', orgKey);
    expect(listed.body.items).toEqual([
      expect.objectContaining({
        name: 'Renamed 5',
        externalId: 'ext-5',
        custom: { seats: 5 },
        primaryEmail: 'c5@example.test',
        roles: ['client'],
      }),
    ]);
    expect(
      (await stack.http.get('/api/customers?q=renamed').set(org.auth)).body.items.map((c: { name: string }) => c.name),
    ).toEqual(['Renamed 5']);
  });

  it('reports refused records with their index and field, storing the others', async () => {
    await stack.http
      .put('/api/customers/fields/tier')
      .set(owner.auth)
      .send({ label: 'Tier', type: 'select', options: ['gold'] })
      .expect(201);
    const res = await bulk('customers', [
      { externalId: 'ok-1', name: 'Fine' },
      { name: 'No id' },
      { externalId: 'bad-2', name: 'Bad', kind: 'robot', emails: [{ value: 'nope' }] },
      { externalId: 'bad-3', name: 'Bad custom', custom: { tier: 'bronze' } },
      { externalId: 'ok-1', name: 'Twice' },
      'not an object',
      { externalId: 'ok-2', name: 'Fine too', extra: true },
    ]);
    expect(res.status).toBe(202);
    const done = await finished(res.body.id);
    expect(done).toMatchObject({ status: 'completed', total: 7, created: 1, failed: 7 });
    expect(done.errors).toEqual([
      { index: 1, externalId: null, field: 'externalId', message: 'is required' },
      expect.objectContaining({ index: 2, externalId: 'bad-2', field: 'kind' }),
      expect.objectContaining({ index: 2, externalId: 'bad-2', field: 'emails[0].value' }),
      expect.objectContaining({ index: 3, externalId: 'bad-3', field: 'custom.tier' }),
      { index: 4, externalId: 'ok-1', field: 'externalId', message: 'repeats record 0 of this call' },
      { index: 5, externalId: null, field: 'record', message: 'must be an object' },
      { index: 6, externalId: 'ok-2', field: 'extra', message: 'is not a field' },
    ]);
    // The envelope is checked at once.
    expect(
      (await stack.http.post('/api/public/hub/customers/bulk').set('X-Server-API-Key', key).send({ records: [] }))
        .status,
    ).toBe(400);
    expect(
      (
        await stack.http
          .post('/api/public/hub/customers/bulk')
          .set('X-Server-API-Key', key)
          .send({ rows: [{}] })
      ).status,
    ).toBe(400);
    expectProblem(
      await bulk(
        'customers',
        Array.from({ length: 10_001 }, () => ({})),
      ),
      413,
      'batch_too_large',
    );
    expectProblem(
      await bulk('customers', [{ externalId: 'x', name: 'x' }], await hubKey(stack, owner, 'read')),
      403,
      'api_key_scope_missing',
    );
    expectProblem(await bulk('customers', [{ externalId: 'x', name: 'x' }], 'psk_core_nope'), 401, 'api_key_invalid');
  });

  it('imports deals idempotently, resolving customers by external id', async () => {
    const org = await createAccount(stack);
    const orgKey = await hubKey(stack, org);
    const none = await bulk(
      'deals',
      [
        {
          externalId: 'd0',
          title: 'X',
          customerId: '00000000-0000-4000-8000-000000000000',
          amount: 1,
          currency: 'EUR',
        },
      ],
      orgKey,
    );
    const early = await eventually(async () =>
      (await stack.http.get(`/api/public/hub/imports/${none.body.id}`).set('X-Server-API-Key', orgKey)).body.status ===
      'completed'
        ? true
        : null,
    );
    expect(early).toBe(true);
    const p = await makePipeline(stack, org);
    const c = await makeCustomer(stack, org, { externalId: 'cust-1' });
    const deals = [
      { externalId: 'd1', title: 'First', customerExternalId: 'cust-1', amount: 1000, currency: 'EUR' },
      {
        externalId: 'd2',
        title: 'Second',
        customerId: c.id,
        stageId: p.stages[2].id,
        amount: 2000,
        currency: 'USD',
        expectedCloseDate: '2027-01-31',
      },
      { externalId: 'd3', title: 'Orphan', customerExternalId: 'nobody', amount: 1, currency: 'EUR' },
      { externalId: 'd4', title: 'Bad', customerExternalId: 'cust-1', amount: -5, currency: 'eur' },
      // Date.parse takes 31 April (1 May), PostgreSQL's date does not: refused alone, not the whole import.
      {
        externalId: 'd5',
        title: 'No such day',
        customerExternalId: 'cust-1',
        amount: 1,
        currency: 'EUR',
        expectedCloseDate: '2024-04-31',
      },
    ];
    const wait = async (id: string) =>
      eventually(async () => {
        const r = await stack.http.get(`/api/public/hub/imports/${id}`).set('X-Server-API-Key', orgKey);
        return r.body.status === 'completed' ? r.body : null;
      });
    const first = await wait((await bulk('deals', deals, orgKey)).body.id);
    expect(first).toMatchObject({ status: 'completed', created: 2, updated: 0, failed: 4 });
    expect(first.errors.map((e: { index: number; field: string }) => [e.index, e.field])).toEqual([
      [2, 'customerExternalId'],
      [3, 'amount'],
      [3, 'currency'],
      [4, 'expectedCloseDate'],
    ]);
    deals[0].amount = 1500;
    expect(await wait((await bulk('deals', deals, orgKey)).body.id)).toMatchObject({ created: 0, updated: 2 });
    const listed = (await stack.http.get(`/api/deals?customerId=${c.id}`).set(org.auth)).body.items;
    expect(
      listed.map((d: { title: string; amount: number; stageId: string }) => [d.title, d.amount, d.stageId]),
    ).toEqual([
      ['First', 1500, p.stages[0].id],
      ['Second', 2000, p.stages[2].id],
    ]);
    expect((await stack.http.get(`/api/deals/${listed[0].id}`).set(org.auth)).body.history).toEqual([
      expect.objectContaining({ type: 'created', actorId: null }),
    ]);
    // Upper-case UUIDs name the same customer and stage (PostgreSQL's uuid ignores case).
    const upper = {
      externalId: 'd6',
      title: 'Upper',
      customerId: c.id.toUpperCase(),
      stageId: p.stages[1].id.toUpperCase(),
      amount: 300,
      currency: 'EUR',
    };
    expect(await wait((await bulk('deals', [upper], orgKey)).body.id)).toMatchObject({ created: 1, failed: 0 });
    const stored = (await stack.http.get(`/api/deals?customerId=${c.id}`).set(org.auth)).body.items.find(
      (d: { title: string }) => d.title === 'Upper',
    );
    expect(stored).toMatchObject({ customerId: c.id, stageId: p.stages[1].id, amount: 300 });
  });

  it('syncs activities and logs e-mails on internal routes, fail-closed', async () => {
    const c = await makeCustomer(stack, owner, { name: 'Synced', emails: [{ value: 'synced@example.test' }] });
    const sync = (body: unknown, secret: string | null = TEST_INTERNAL_SECRET) => {
      const req = stack.http.post('/api/internal/activity-sync');
      return (secret === null ? req : req.set('X-Internal-Secret', secret)).send(body as object);
    };
    const body = {
      tenantId: owner.tenantId,
      source: 'calendar',
      activities: [
        {
          externalId: 'ev-1',
          customerId: c.id,
          type: 'meeting',
          subject: 'Demo',
          occurredAt: '2026-01-10T10:00:00.000Z',
        },
        {
          externalId: 'ev-2',
          customerEmail: 'New.Person@example.test',
          customerName: 'New Person',
          type: 'call',
          subject: 'Intro',
          occurredAt: '2026-01-11T10:00:00.000Z',
        },
      ],
    };
    expectProblem(await sync(body, null), 403, 'internal_secret_invalid');
    expectProblem(await sync(body, 'wrong'), 403, 'internal_secret_invalid');
    const res = await sync(body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 2, updated: 0 });
    expect((await sync(body)).body).toMatchObject({ created: 0, updated: 2 });
    const upper = await sync({
      ...body,
      tenantId: owner.tenantId.toUpperCase(),
      activities: [{ ...body.activities[0], customerId: c.id.toUpperCase() }],
    });
    expect([upper.status, upper.body]).toEqual([
      200,
      expect.objectContaining({ created: 0, updated: 1, activities: [expect.objectContaining({ customerId: c.id })] }),
    ]);
    const made = await stack.http.get('/api/customers?q=new.person@example.test').set(owner.auth);
    expect(made.body.items).toEqual([
      expect.objectContaining({
        name: 'New Person',
        primaryEmail: 'new.person@example.test',
        lastContactAt: '2026-01-11T10:00:00.000Z',
      }),
    ]);
    expect((await sync({ ...body, tenantId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await sync({ ...body, activities: [{ ...body.activities[0], customerId: undefined }] })).status).toBe(400);
    const stranger = await makeCustomer(stack, await createAccount(stack));
    expect(
      (await sync({ ...body, activities: [{ ...body.activities[0], customerId: stranger.id }] })).body.errors[0].field,
    ).toBe('activities[0].customerId');

    const mail = {
      tenantId: owner.tenantId,
      messageId: '<m1@mail.test>',
      direction: 'outbound',
      from: { email: 'me@us.test' },
      to: [{ email: 'SYNCED@example.test' }],
      cc: [{ email: 'other@example.test', name: 'Other' }],
      subject: 'Proposal',
      body: 'Hi',
      sentAt: '2026-02-01T09:00:00.000Z',
    };
    const log = (b: unknown, secret = TEST_INTERNAL_SECRET) =>
      stack.http
        .post('/api/customers/internal/log-email')
        .set('X-Internal-Secret', secret)
        .send(b as object);
    expectProblem(await log(mail, 'wrong'), 403, 'internal_secret_invalid');
    const logged = await log(mail);
    expect(logged.status).toBe(200);
    expect(logged.body.activities.map((a: { customerId: string }) => a.customerId)).toContain(c.id);
    expect(logged.body.created).toBe(2);
    expect((await log(mail)).body).toMatchObject({ created: 0, updated: 2 });
    const timeline = await stack.http.get(`/api/customers/${c.id}/timeline`).set(owner.auth);
    expect(timeline.body.items[0]).toMatchObject({
      source: 'activity',
      type: 'email',
      title: 'Proposal',
      at: '2026-02-01T09:00:00.000Z',
    });
    expect((await log({ ...mail, sentAt: 'yesterday' })).status).toBe(400);
    // Strict ISO 8601 forms new Date() cannot read are field errors, not a 500.
    expectFieldErrors(await log({ ...mail, sentAt: '2009-W53-7' }), 'sentAt');
    expectFieldErrors(
      await sync({ ...body, activities: [{ ...body.activities[0], occurredAt: '20240101' }] }),
      'activities[0].occurredAt',
    );
  });

  it('refuses internal routes when no secret is configured', async () => {
    const closed = await startStack({ workers: false, env: { INTERNAL_SECRET: '' } });
    try {
      expectProblem(
        await closed.http.post('/api/internal/activity-sync').set('X-Internal-Secret', '').send({}),
        403,
        'internal_routes_disabled',
      );
      expectProblem(
        await closed.http.post('/api/customers/internal/log-email').set('X-Internal-Secret', 'anything').send({}),
        403,
        'internal_routes_disabled',
      );
    } finally {
      await closed.close();
    }
  });

  it('streams contacts, relations and deals as JSON lines or CSV', async () => {
    const org = await createAccount(stack);
    const a = await makeCustomer(stack, org, { name: 'Ada, "the first"', tags: ['x', 'y'] });
    const b = await makeCustomer(stack, org, { name: 'Acme', kind: 'organisation' });
    await stack.http
      .post(`/api/customers/${a.id}/relations`)
      .set(org.auth)
      .send({ type: 'employee_of', customerId: b.id })
      .expect(201);
    const p = await makePipeline(stack, org);
    await stack.http
      .post('/api/deals')
      .set(org.auth)
      .send({ title: 'Big', customerId: b.id, stageId: p.stages[0].id, amount: 5000, currency: 'EUR' })
      .expect(201);
    await makeCustomer(stack, owner, { name: 'Not exported' });
    const lines = await stack.http
      .get('/connect/export')
      .set(org.auth)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => done(null, text));
      });
    expect(lines.status).toBe(200);
    expect(lines.headers['content-type']).toMatch(/application\/x-ndjson/);
    const rows = (lines.body as string)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.recordType)).toEqual(['customer', 'customer', 'relation', 'deal']);
    expect(rows[2]).toMatchObject({ fromId: a.id, toId: b.id, type: 'employee_of' });
    expect(rows[0]).toMatchObject({ id: a.id, name: 'Ada, "the first"', tags: ['x', 'y'] });
    expect(rows[3]).toMatchObject({ title: 'Big', amount: 5000, customerId: b.id });
    const csv = await stack.http
      .get('/connect/export?format=csv')
      .set(org.auth)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => done(null, text));
      });
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const csvLines = (csv.body as string).trim().split('\n');
    expect(csvLines[0]).toBe(
      'id,externalId,kind,name,roles,tags,primaryEmail,emails,phones,addresses,custom,ownerId,lastContactAt,createdAt,updatedAt',
    );
    expect(csvLines[1]).toContain('"Ada, ""the first""",,x;y');
    expect(csvLines).toHaveLength(3);
    expect((await stack.http.get('/connect/export?format=xml').set(org.auth)).status).toBe(400);
    expect((await stack.http.get('/connect/export')).status).toBe(401);
  });

  it('prefixes CSV cells that would start a spreadsheet formula, numbers excepted', async () => {
    const org = await createAccount(stack);
    const names = ['=1+1', '+33 6 12', '-2', '@SUM(A1)', 'Plain'];
    for (const name of names) await makeCustomer(stack, org, { name });
    const csv = await stack.http
      .get('/connect/export?format=csv')
      .set(org.auth)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => done(null, text));
      });
    expect(csv.status).toBe(200);
    const exported = (csv.body as string)
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(',')[3]);
    expect(exported.sort()).toEqual(["'+33 6 12", "'-2", "'=1+1", "'@SUM(A1)", 'Plain'].sort());
    // A negative amount written as a number stays a number; the same text is prefixed.
    expect(stringify([[-5, '-5']], { ...csvExportOptions, header: false })).toBe("-5,'-5\n");
  });
});
