import { purgeCustomField } from '../../../domain/core/crm/purgeCustomField';
import { crmFieldPurgeQueue } from '../../../queues/crm';
import { createAccount, type Account } from '../../support/factories';
import { makeCustomer } from '../../support/crm';
import { expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';

describe('CRM customers', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
  });
  afterAll(() => stack.close());

  const list = async (account: Account, query: string) => {
    const res = await stack.http.get(`/api/customers?${query}`).set(account.auth);
    expect(res.status).toBe(200);
    return res.body as { items: { id: string; name: string }[]; nextCursor: string | null };
  };

  it('creates a party with roles, typed contact details (one primary) and custom values', async () => {
    await stack.http
      .put('/api/customers/fields/industry')
      .set(owner.auth)
      .send({ label: 'Industry', type: 'select', options: ['retail', 'software'] })
      .expect(201);
    const res = await stack.http
      .post('/api/customers')
      .set(owner.auth)
      .send({
        kind: 'organisation',
        name: 'Acme Ltd',
        roles: ['client', 'supplier', 'client'],
        tags: ['VIP', 'vip', 'north'],
        emails: [{ value: 'info@acme.test' }, { type: 'billing', value: 'Billing@Acme.test', primary: true }],
        phones: [{ type: 'mobile', value: '+44 20 7946 0958' }],
        addresses: [{ line1: '1 High Street', city: 'London', country: 'gb' }],
        custom: { industry: 'software' },
      });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/api/customers/${res.body.id}`);
    expect(res.body).toMatchObject({
      kind: 'organisation',
      roles: ['client', 'supplier'],
      tags: ['vip', 'north'],
      emails: [
        { type: 'billing', value: 'billing@acme.test', primary: true },
        { type: 'work', value: 'info@acme.test', primary: false },
      ],
      primaryEmail: 'billing@acme.test',
      phones: [{ type: 'mobile', value: '+44 20 7946 0958', primary: true }],
      addresses: [{ line1: '1 High Street', city: 'London', country: 'GB', primary: true, line2: null }],
      custom: { industry: 'software' },
      lastContactAt: null,
    });
    const got = await stack.http.get(`/api/customers/${res.body.id}`).set(owner.auth).expect(200);
    expect(got.body).toEqual({ ...res.body, relations: [] });
    const patched = await stack.http
      .patch(`/api/customers/${res.body.id}`)
      .set(owner.auth)
      .send({ name: 'Acme Limited', custom: { industry: null }, roles: ['partner'] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Acme Limited',
      custom: {},
      roles: ['partner'],
      tags: ['vip', 'north'],
    });
  });

  it('validates custom values against every field type, naming the field', async () => {
    const fields = {
      size: { type: 'number' },
      since: { type: 'date' },
      active: { type: 'boolean' },
      note: { type: 'text' },
      tier: { type: 'select', options: ['gold', 'silver'] },
    };
    for (const [key, def] of Object.entries(fields))
      await stack.http
        .put(`/api/customers/fields/${key}`)
        .set(owner.auth)
        .send({ label: key, ...def })
        .expect(201);
    const good = { size: 42, since: '2024-02-29', active: true, note: 'x'.repeat(2000), tier: 'gold' };
    const made = await makeCustomer(stack, owner, { custom: good });
    expect(made.custom).toEqual(good);
    const bad = { size: '42', since: '2023-02-29', active: 'yes', note: 'x'.repeat(2001), tier: 'bronze', unknown: 1 };
    const res = expectProblem(
      await stack.http.post('/api/customers').set(owner.auth).send({ kind: 'person', name: 'X', custom: bad }),
      400,
      'validation_failed',
    );
    const errors = res.errors as { field: string; message: string }[];
    expect(errors.map((e) => e.field).sort()).toEqual([
      'custom.active',
      'custom.note',
      'custom.since',
      'custom.size',
      'custom.tier',
      'custom.unknown',
    ]);
    expect(errors.find((e) => e.field === 'custom.tier')!.message).toContain('gold, silver');
    // Each type alone, on edit too.
    for (const [key, value] of Object.entries(bad)) {
      const r = await stack.http
        .patch(`/api/customers/${made.id}`)
        .set(owner.auth)
        .send({ custom: { [key]: value } });
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual([expect.objectContaining({ field: `custom.${key}` })]);
    }
    // Field definitions: select needs options, others refuse them; the type of a used field cannot change.
    expect(
      (await stack.http.put('/api/customers/fields/x').set(owner.auth).send({ label: 'X', type: 'select' })).status,
    ).toBe(400);
    expect(
      (
        await stack.http
          .put('/api/customers/fields/x')
          .set(owner.auth)
          .send({ label: 'X', type: 'text', options: ['a'] })
      ).status,
    ).toBe(400);
    expect(
      (await stack.http.put('/api/customers/fields/Bad-Key').set(owner.auth).send({ label: 'X', type: 'text' })).status,
    ).toBe(400);
    expectProblem(
      await stack.http.put('/api/customers/fields/size').set(owner.auth).send({ label: 'Size', type: 'text' }),
      409,
      'field_in_use',
    );
    const relabel = await stack.http
      .put('/api/customers/fields/size')
      .set(owner.auth)
      .send({ label: 'Headcount', type: 'number' });
    expect(relabel.status).toBe(200);
    expect(relabel.body).toMatchObject({ key: 'size', label: 'Headcount', type: 'number', options: [] });
    const listed = await stack.http.get('/api/customers/fields').set(owner.auth).expect(200);
    expect(listed.body.items.map((f: { key: string }) => f.key)).toEqual(
      expect.arrayContaining(['active', 'note', 'since', 'size', 'tier']),
    );
    // Deleting a field hides its values at once.
    await stack.http.delete('/api/customers/fields/note').set(owner.auth).expect(204);
    expect((await stack.http.get(`/api/customers/${made.id}`).set(owner.auth)).body.custom).toEqual({
      size: 42,
      since: '2024-02-29',
      active: true,
      tier: 'gold',
    });
    expect((await stack.http.get('/api/customers/fields/note').set(owner.auth)).status).toBe(404);
    // Defined again before the purge ran (workers are off): the new field starts empty, the old values are gone.
    await stack.http.delete('/api/customers/fields/size').set(owner.auth).expect(204);
    await stack.http
      .put('/api/customers/fields/size')
      .set(owner.auth)
      .send({ label: 'Size', type: 'select', options: ['small', 'large'] })
      .expect(201);
    expect((await stack.http.get(`/api/customers/${made.id}`).set(owner.auth)).body.custom).toEqual({
      since: '2024-02-29',
      active: true,
      tier: 'gold',
    });
    const [stored] = await stack.services.orm.em
      .fork()
      .execute<{ custom: object }[]>('select custom from crm_customers where id = ?', [made.id]);
    expect(stored.custom).not.toHaveProperty('size');
    // Deleting again while the values are stored (its purge lost or pending) requests the purge again; then 404.
    const purges = async () =>
      (await stack.services.queues.get(crmFieldPurgeQueue).getJobs(['waiting'])).filter(
        (j) => j.data.tenantId === owner.tenantId && j.data.key === 'note',
      ).length;
    expect(await purges()).toBe(1);
    await stack.http.delete('/api/customers/fields/note').set(owner.auth).expect(204);
    expect(await purges()).toBe(2);
    await purgeCustomField(stack.services, owner.tenantId, 'note');
    expectProblem(await stack.http.delete('/api/customers/fields/note').set(owner.auth), 404, 'not_found');
  });

  it('filters by kind, role, tag and custom values, sorts and pages by cursor', async () => {
    const org = await createAccount(stack);
    await stack.http
      .put('/api/customers/fields/tier')
      .set(org.auth)
      .send({ label: 'Tier', type: 'select', options: ['gold', 'silver'] })
      .expect(201);
    await stack.http
      .put('/api/customers/fields/seats')
      .set(org.auth)
      .send({ label: 'Seats', type: 'number' })
      .expect(201);
    const names = ['Delta', 'alpha', 'Charlie', 'Bravo', 'Echo'];
    for (const [i, name] of names.entries()) {
      await makeCustomer(stack, org, {
        name,
        kind: i % 2 ? 'organisation' : 'person',
        roles: i < 3 ? ['client'] : ['prospect'],
        tags: i === 0 ? ['vip'] : [],
        custom: { tier: i % 2 ? 'gold' : 'silver', seats: i },
      });
    }
    expect((await list(org, 'kind=organisation')).items.map((c) => c.name).sort()).toEqual(['Bravo', 'alpha']);
    expect((await list(org, 'role=prospect')).items.map((c) => c.name).sort()).toEqual(['Bravo', 'Echo']);
    expect((await list(org, 'tag=VIP')).items.map((c) => c.name)).toEqual(['Delta']);
    expect((await list(org, 'custom=tier:gold&custom=seats:3')).items.map((c) => c.name)).toEqual(['Bravo']);
    expect((await list(org, 'role=client&custom=tier:silver')).items.map((c) => c.name).sort()).toEqual([
      'Charlie',
      'Delta',
    ]);
    const byName = (await list(org, 'limit=200')).items.map((c) => c.name);
    expect(byName.map((n) => n.toLowerCase())).toEqual([...byName].map((n) => n.toLowerCase()).sort());
    // Pages of two, every sort, cover everything once.
    for (const sort of ['name', '-name', 'createdAt', '-createdAt', 'updatedAt', '-updatedAt']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(org, `limit=2&sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...page.items.map((c) => c.name));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen.length).toBe(5);
      expect(new Set(seen).size).toBe(5);
    }
    expect((await list(org, 'sort=-createdAt&limit=1')).items[0].name).toBe('Echo');
    // Bad filters are 400s naming the field.
    for (const q of [
      'kind=robot',
      'role=king',
      'custom=nope:1',
      'custom=seats:many',
      'custom=tier:bronze',
      'sort=size',
      'limit=0',
      'cursor=garbage',
      'sort=relevance',
      'q=%20%20',
      'extra=1',
    ]) {
      expect([q, (await stack.http.get(`/api/customers?${q}`).set(org.auth)).status]).toEqual([q, 400]);
    }
  });

  it('pages every sort, filters combined, as the unpaged order; a cursor made by hand (base64url of JSON [key, id]) still pages', async () => {
    const org = await createAccount(stack);
    await stack.http
      .put('/api/customers/fields/tier')
      .set(org.auth)
      .send({ label: 'Tier', type: 'select', options: ['gold', 'silver'] })
      .expect(201);
    // Names equal but for case: the id breaks the tie of lower(name).
    const names = ['kim', 'Kim', 'KIM', 'lee', 'Lee', 'Ann', 'bob', 'Cy', 'dan', 'Eve', 'fay', 'Gus'];
    for (const [i, name] of names.entries()) {
      await makeCustomer(stack, org, {
        name,
        kind: i % 3 ? 'person' : 'organisation',
        tags: i % 4 ? ['vip'] : [],
        custom: { tier: i % 5 ? 'gold' : 'silver' },
      });
    }
    const all = async (query: string) =>
      (await list(org, `limit=200&${query}`)).items as { id: string; name: string; updatedAt: string }[];
    const cursorOf = (key: string, id: string) => Buffer.from(JSON.stringify([key, id])).toString('base64url');
    for (const filters of ['', 'kind=person&tag=VIP&custom=tier:gold']) {
      for (const sort of ['name', '-name', 'createdAt', '-createdAt', 'updatedAt', '-updatedAt']) {
        const unpaged = await all(`sort=${sort}&${filters}`);
        expect(unpaged.length).toBeGreaterThan(filters ? 3 : 11);
        for (const limit of [1, 2]) {
          const seen: string[] = [];
          let cursor: string | null = null;
          do {
            const page = await list(org, `limit=${limit}&sort=${sort}&${filters}${cursor ? `&cursor=${cursor}` : ''}`);
            seen.push(...page.items.map((c) => c.id));
            const last = unpaged.find((c) => c.id === seen[seen.length - 1])!;
            // The cursor's format: [lower(name) | updatedAt to the microsecond | id, id] of the page's last item.
            const key = sort.endsWith('name')
              ? last.name.toLowerCase()
              : sort.endsWith('updatedAt')
                ? last.updatedAt.replace('Z', '000Z')
                : last.id;
            expect(page.nextCursor).toBe(seen.length < unpaged.length ? cursorOf(key, last.id) : null);
            cursor = page.nextCursor;
          } while (cursor);
          expect([sort, limit, filters, seen]).toEqual([sort, limit, filters, unpaged.map((c) => c.id)]);
        }
        // A cursor made by hand, as a client holding one from an earlier version has it.
        const at = unpaged[1];
        const key = sort.endsWith('name') ? at.name.toLowerCase() : sort.endsWith('updatedAt') ? at.updatedAt : at.id;
        const after = await list(org, `limit=3&sort=${sort}&${filters}&cursor=${cursorOf(key, at.id)}`);
        expect(after.items.map((c) => c.id)).toEqual(unpaged.slice(2, 5).map((c) => c.id));
      }
    }
    // A cursor whose id is not a uuid is a bad cursor, not a failed statement; a number is not a name key, nor a
    // date PostgreSQL would read differently (no zone) a time key.
    expectProblem(
      await stack.http.get(`/api/customers?sort=createdAt&cursor=${cursorOf('x', '-'.repeat(36))}`).set(org.auth),
      400,
      'validation_failed',
    );
    expectProblem(
      await stack.http
        .get(
          `/api/customers?sort=updatedAt&cursor=${cursorOf('2026-01-01 10:00', '01900000-0000-7000-8000-000000000000')}`,
        )
        .set(org.auth),
      400,
      'validation_failed',
    );
    expectProblem(
      await stack.http
        .get(
          `/api/customers?sort=name&cursor=${Buffer.from(JSON.stringify([1, '01900000-0000-7000-8000-000000000000'])).toString('base64url')}`,
        )
        .set(org.auth),
      400,
      'validation_failed',
    );
    // Nor a day that does not exist (Date.parse takes it, PostgreSQL does not), nor a rank a search cannot have.
    expectProblem(
      await stack.http
        .get(
          `/api/customers?sort=updatedAt&cursor=${cursorOf('2024-02-30T00:00:00Z', '01900000-0000-7000-8000-000000000000')}`,
        )
        .set(org.auth),
      400,
      'validation_failed',
    );
    for (const rank of [1e39, -1]) {
      expectProblem(
        await stack.http
          .get(
            `/api/customers?q=kim&cursor=${Buffer.from(JSON.stringify([rank, '01900000-0000-7000-8000-000000000000'])).toString('base64url')}`,
          )
          .set(org.auth),
        400,
        'validation_failed',
      );
    }
  });

  it('pages by updatedAt to the microsecond: rows changed within one millisecond by SQL are neither repeated nor skipped', async () => {
    const org = await createAccount(stack);
    const made = [];
    for (const name of ['Mira', 'Mirabel', 'Miranda', 'Mirela']) made.push(await makeCustomer(stack, org, { name }));
    // What a writer using now() leaves: one millisecond, different microseconds (and one tie broken by id).
    const micros = ['.123401', '.123402', '.123402', '.123403'];
    for (const [i, c] of made.entries()) {
      await stack.services.orm.em
        .getConnection()
        .execute(`update crm_customers set updated_at = ? where id = ?`, [`2026-05-01T08:00:00${micros[i]}Z`, c.id]);
    }
    for (const query of ['sort=updatedAt', 'sort=-updatedAt', 'sort=updatedAt&q=mira', 'sort=-updatedAt&q=mira']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(org, `limit=1&${query}${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...page.items.map((c) => c.id));
        cursor = page.nextCursor;
      } while (cursor && seen.length < 10);
      expect([query, seen.sort()]).toEqual([query, made.map((c) => c.id).sort()]);
    }
  });

  it('searches names, e-mails and phones, and a typo still finds the person', async () => {
    const org = await createAccount(stack);
    const ada = await makeCustomer(stack, org, {
      name: 'Ada Lovelace',
      emails: [{ value: 'ada@analytical.test' }],
      phones: [{ value: '+33 6 12 34 56 78' }],
    });
    await makeCustomer(stack, org, { name: 'Charles Babbage', emails: [{ value: 'charles@engine.test' }] });
    await makeCustomer(stack, org, { name: 'Grace Hopper' });
    const found = async (q: string) => (await list(org, `q=${encodeURIComponent(q)}`)).items.map((c) => c.name);
    expect(await found('Lovelace')).toEqual(['Ada Lovelace']);
    expect(await found('lovelcae')).toEqual(['Ada Lovelace']);
    expect(await found('Lovlace')).toEqual(['Ada Lovelace']);
    expect(await found('babage')).toEqual(['Charles Babbage']);
    expect(await found('analytical')).toEqual(['Ada Lovelace']);
    expect(await found('06 12 34 56')).toEqual(['Ada Lovelace']);
    expect(await found('12-34-56-78')).toEqual(['Ada Lovelace']);
    expect(await found('zzzzqqq')).toEqual([]);
    // Relevance pages with a cursor too.
    const first = await list(org, 'q=a&limit=1');
    expect(first.items).toHaveLength(1);
    // Other tenants' customers are never found.
    const other = await createAccount(stack);
    expect((await list(other, 'q=lovelace')).items).toEqual([]);
    expect((await stack.http.get(`/api/customers/${ada.id}`).set(other.auth)).status).toBe(404);
  });

  it('relates customers and shows each relation from both ends', async () => {
    const ada = await makeCustomer(stack, owner, { name: 'Ada' });
    const acme = await makeCustomer(stack, owner, { name: 'Acme', kind: 'organisation' });
    const holding = await makeCustomer(stack, owner, { name: 'Holding', kind: 'organisation' });
    const rel = await stack.http
      .post(`/api/customers/${ada.id}/relations`)
      .set(owner.auth)
      .send({ type: 'employee_of', customerId: acme.id });
    expect(rel.status).toBe(201);
    expect(rel.body).toMatchObject({
      type: 'employee_of',
      direction: 'outgoing',
      customerId: acme.id,
      customerName: 'Acme',
      customerKind: 'organisation',
    });
    await stack.http
      .post(`/api/customers/${acme.id}/relations`)
      .set(owner.auth)
      .send({ type: 'subsidiary_of', customerId: holding.id })
      .expect(201);
    const fromAcme = (await stack.http.get(`/api/customers/${acme.id}`).set(owner.auth)).body.relations;
    expect(fromAcme).toEqual([
      {
        ...rel.body,
        type: 'employer_of',
        direction: 'incoming',
        customerId: ada.id,
        customerName: 'Ada',
        customerKind: 'person',
      },
      expect.objectContaining({ type: 'subsidiary_of', direction: 'outgoing', customerId: holding.id }),
    ]);
    const fromHolding = (await stack.http.get(`/api/customers/${holding.id}`).set(owner.auth)).body.relations;
    expect(fromHolding).toEqual([
      expect.objectContaining({ type: 'parent_of', direction: 'incoming', customerId: acme.id }),
    ]);
    expectProblem(
      await stack.http
        .post(`/api/customers/${ada.id}/relations`)
        .set(owner.auth)
        .send({ type: 'employee_of', customerId: acme.id }),
      409,
      'relation_exists',
    );
    expect(
      (
        await stack.http
          .post(`/api/customers/${ada.id}/relations`)
          .set(owner.auth)
          .send({ type: 'employee_of', customerId: ada.id })
      ).status,
    ).toBe(400);
    expect(
      (
        await stack.http
          .post(`/api/customers/${ada.id}/relations`)
          .set(owner.auth)
          .send({ type: 'boss_of', customerId: acme.id })
      ).status,
    ).toBe(400);
    // A symmetric kind is one relation whichever end states it.
    const partner = await stack.http
      .post(`/api/customers/${acme.id}/relations`)
      .set(owner.auth)
      .send({ type: 'partner_of', customerId: ada.id });
    expect(partner.status).toBe(201);
    expectProblem(
      await stack.http
        .post(`/api/customers/${ada.id}/relations`)
        .set(owner.auth)
        .send({ type: 'partner_of', customerId: acme.id }),
      409,
      'relation_exists',
    );
    expect(
      (await stack.http.get(`/api/customers/${ada.id}`).set(owner.auth)).body.relations.filter(
        (r: { type: string }) => r.type === 'partner_of',
      ),
    ).toEqual([expect.objectContaining({ id: partner.body.id, customerId: acme.id })]);
    await stack.http.delete(`/api/customers/${ada.id}/relations/${partner.body.id}`).set(owner.auth).expect(204);
    const stranger = await makeCustomer(stack, await createAccount(stack), { name: 'Stranger' });
    expect(
      (
        await stack.http
          .post(`/api/customers/${ada.id}/relations`)
          .set(owner.auth)
          .send({ type: 'partner_of', customerId: stranger.id })
      ).status,
    ).toBe(400);
    // Removed from the other end; deleting a customer removes its relations.
    await stack.http.delete(`/api/customers/${acme.id}/relations/${rel.body.id}`).set(owner.auth).expect(204);
    expect((await stack.http.get(`/api/customers/${ada.id}`).set(owner.auth)).body.relations).toEqual([]);
    expect((await stack.http.delete(`/api/customers/${ada.id}/relations/${rel.body.id}`).set(owner.auth)).status).toBe(
      404,
    );
    await stack.http.delete(`/api/customers/${holding.id}`).set(owner.auth).expect(204);
    expect((await stack.http.get(`/api/customers/${acme.id}`).set(owner.auth)).body.relations).toEqual([]);
  });

  it('refuses bad input with field errors', async () => {
    const res = await stack.http
      .post('/api/customers')
      .set(owner.auth)
      .send({
        kind: 'robot',
        name: '',
        roles: ['king'],
        emails: [{ value: 'nope' }],
        phones: [{ value: 'abc' }],
        addresses: [{ city: 'x' }],
        ownerId: 'x',
        extra: 1,
      });
    expect(res.status).toBe(400);
    const fields = res.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'kind',
        'name',
        'roles',
        'emails[0].value',
        'phones[0].value',
        'addresses[0].line1',
        'ownerId',
        'extra',
      ]),
    );
    const stranger = await createAccount(stack);
    const r = await stack.http
      .post('/api/customers')
      .set(owner.auth)
      .send({ kind: 'person', name: 'X', ownerId: stranger.user.id });
    expect(r.body.errors).toEqual([{ field: 'ownerId', message: 'is not a member of this organisation' }]);
    expect((await stack.http.get('/api/customers/not-a-uuid').set(owner.auth)).status).toBe(400);
    expect(
      (
        await stack.http
          .patch(`/api/customers/${(await makeCustomer(stack, owner)).id}`)
          .set(owner.auth)
          .send({ name: null })
      ).status,
    ).toBe(400);
    await makeCustomer(stack, owner, { externalId: 'ext-1' });
    expectProblem(
      await stack.http.post('/api/customers').set(owner.auth).send({ kind: 'person', name: 'Y', externalId: 'ext-1' }),
      409,
      'external_id_taken',
    );
    // A name printed on invoices (Factur-X XML) holds no character XML forbids.
    const named = expectProblem(
      await stack.http.post('/api/customers').set(owner.auth).send({ kind: 'person', name: 'Ada\u0001 Lovelace' }),
      400,
      'validation_failed',
    );
    expect(named.errors).toEqual([expect.objectContaining({ field: 'name' })]);
  });
});
