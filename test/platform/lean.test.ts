import { DriverException } from '@mikro-orm/core';
import { Activity } from '../../entities/core/activity';
import { Customer } from '../../entities/core/customer';
import { User } from '../../entities/identity/user';
import { Membership } from '../../entities/identity/organization';
import { VrRoom } from '../../entities/vr/room';
import { VrSession } from '../../entities/vr/session';
import { keysetAfter, lean, utcTimestamp } from '../../lib/lean';
import { createAccount } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';
import { createRoom, vrOrg, type VrOrg } from '../support/vr';

/** Lean statements (lib/lean.ts): the same rows as em.find, the tenant always bound, errors as em.find's. */
describe('lean reads', () => {
  let stack: TestStack;
  let org: VrOrg;
  let other: VrOrg;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await vrOrg(stack, 1);
    other = await vrOrg(stack, 1);
    for (const owner of [org, other]) {
      await createRoom(stack, owner.admin, { name: 'A', participantIds: [owner.members[0].user.id] });
      await createRoom(stack, owner.admin, { name: 'B' }, { open: false });
    }
    const room = await createRoom(stack, org.admin, { name: 'C', participantIds: [org.members[0].user.id] });
    expect((await stack.http.post(`/rooms/${room.id}/host`).set(org.members[0].auth)).status).toBe(201);
  });
  afterAll(() => stack.close());

  const scope = (tenantId: string) => ({ services: stack.services, tenantId });
  const allRooms = lean(VrRoom, { orderBy: 'id asc' });

  it('reads the same properties, with the same types, as em.find', async () => {
    const em = stack.services.orm.em.fork();
    em.setFilterParams('tenant', { tenantId: org.admin.tenantId });
    const rooms = await em.find(VrRoom, {}, { orderBy: { id: 'asc' } });
    expect(await allRooms.all(scope(org.admin.tenantId))).toEqual(rooms.map((e) => ({ ...e })));
    const sessions = await em.find(VrSession, {}, { orderBy: { id: 'asc' } });
    expect(sessions.length).toBeGreaterThan(0);
    expect(await lean(VrSession, { orderBy: 'id asc' }).all(scope(org.admin.tenantId))).toEqual(
      sessions.map((e) => ({ ...e })),
    );
    const session = (await lean(VrSession).all(scope(org.admin.tenantId)))[0];
    expect(session.startedAt).toBeInstanceOf(Date);
    expect(typeof session.eventsCount).toBe('number');
  });

  it('reads JSON and text[] columns (contact details, custom values, tags) as em.find hydrates them', async () => {
    const tenantId = org.admin.tenantId;
    const em = stack.services.orm.em.fork();
    em.create(Customer, {
      tenantId,
      kind: 'organisation',
      name: 'Acme',
      roles: ['client', 'supplier'],
      tags: ['vip', 'north'],
      emails: [
        { type: 'billing', value: 'billing@acme.test', primary: true },
        { type: 'work', value: 'info@acme.test', primary: false },
      ],
      phones: [{ type: 'mobile', value: '+44 20 7946 0958', primary: true }],
      addresses: [
        {
          type: 'work',
          line1: '1 High Street',
          line2: null,
          postalCode: null,
          city: 'London',
          region: null,
          country: 'GB',
          primary: true,
        },
      ],
      primaryEmail: 'billing@acme.test',
      custom: { size: 42, active: true, since: '2024-02-29', ratio: 0.5 },
      ownerId: null,
      externalId: 'x-1',
      lastContactAt: new Date(),
      searchText: 'acme',
    });
    em.create(Customer, {
      tenantId,
      kind: 'person',
      name: 'Ada',
      roles: [],
      tags: [],
      emails: [],
      phones: [],
      addresses: [],
      custom: {},
      primaryEmail: null,
      ownerId: null,
      externalId: null,
      lastContactAt: null,
      searchText: 'ada',
    });
    await em.flush();
    const read = stack.services.orm.em.fork();
    read.setFilterParams('tenant', { tenantId });
    const customers = await read.find(Customer, {}, { orderBy: { id: 'asc' } });
    expect(customers).toHaveLength(2);
    expect(await lean(Customer, { orderBy: 'id asc' }).all(scope(tenantId))).toEqual(customers.map((e) => ({ ...e })));
  });

  it('selects a reference mapped to its id (mapToPk) under its property name, and no other relation', () => {
    const sql = lean(Activity).sql(stack.services.orm);
    expect(sql).toMatch(/\."customer_id" as "customerId"/);
    expect(lean(Membership).sql(stack.services.orm)).not.toMatch(/"user_id"/);
  });

  it('binds the tenant: another organisation reads its own rows only', async () => {
    const mine = await allRooms.all(scope(org.admin.tenantId));
    const theirs = await allRooms.all(scope(other.admin.tenantId));
    expect(mine.map((r) => r.name).sort()).toEqual(['A', 'B', 'C']);
    expect(theirs.map((r) => r.name).sort()).toEqual(['A', 'B']);
    expect(new Set(theirs.map((r) => r.tenantId))).toEqual(new Set([other.admin.tenantId]));
    expect(allRooms.sql(stack.services.orm)).toMatch(/where "vr_rooms"\."tenant_id" = \$1/);
  });

  it('refuses to run a tenant-scoped statement without a tenant', async () => {
    await expect(allRooms.all(scope(''))).rejects.toThrow(/cannot run without a tenant/);
  });

  it('crosses tenants only when declared, and only on tenant-scoped entities', async () => {
    const memberships = lean(Membership, { where: 'user_id = $1', crossTenant: true });
    const solo = await createAccount(stack);
    expect(await memberships.all(scope(''), solo.user.id)).toHaveLength(1);
    await expect(lean(User, { crossTenant: true }).all(scope(''))).rejects.toThrow(/not tenant-scoped/);
    // A global entity needs no tenant.
    expect((await lean(User, { where: 'id = $1' }).one(scope(''), solo.user.id))?.email).toBe(solo.email);
  });

  it("shifts the statement's own parameters after the tenant and fails as em.find does", async () => {
    const byName = lean(VrRoom, { where: 'name = $1 and ($2::text is null or status = $2)', limitParam: '$3' });
    expect((await byName.all(scope(org.admin.tenantId), 'A', null, 10)).map((r) => r.status)).toEqual(['open']);
    expect(await byName.all(scope(org.admin.tenantId), 'B', 'open', 10)).toEqual([]);
    const error = await lean(VrRoom, { where: 'id = $1' })
      .one(scope(org.admin.tenantId), 'not-a-uuid')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriverException);
    expect((error as { code?: string }).code).toBe('22P02');
    expect((await stack.http.get('/rooms/00000000-0000-7000-8000-000000000000').set(org.admin.auth)).status).toBe(404);
  });

  it('selects only the declared columns, and refuses a name that is not one', async () => {
    const names = lean(VrRoom, { columns: ['id', 'name'], orderBy: 'name asc' });
    const rows = await names.all(scope(org.admin.tenantId));
    expect(rows.map((r) => Object.keys(r).sort())).toEqual([
      ['id', 'name'],
      ['id', 'name'],
      ['id', 'name'],
    ]);
    expect(rows.map((r) => r.name)).toEqual(['A', 'B', 'C']);
    expect(() => lean(VrRoom, { columns: ['nope' as 'id'] }).sql(stack.services.orm)).toThrow(/no lean column nope/);
  });

  it("reads timestamps as MikroORM's parser does, and leaves other forms to it", async () => {
    // Every fraction length PostgreSQL prints, and the edges of a day, a month and a year.
    const texts = [
      '2026-11-24 08:11:02+00',
      '2026-11-24 08:11:02.1+00',
      '2026-11-24 08:11:02.12+00',
      '2026-11-24 08:11:02.123+00',
      '2026-11-24 08:11:02.1234+00',
      '2026-11-24 08:11:02.999999+00',
      '2024-02-29 23:59:59.5+00',
      '1999-12-31 00:00:00+00',
      '1000-01-01 00:00:00+00',
    ];
    const platform = stack.services.orm.em.getPlatform();
    for (const text of texts)
      expect(utcTimestamp(text)?.toISOString()).toBe((platform.parseDate(text) as Date).toISOString());
    for (const text of [
      'infinity',
      '2026-11-24 08:11:02+01',
      '2026-11-24 08:11:02.5+05:30',
      '0044-03-15 12:00:00+00 BC',
      '0999-01-01 00:00:00+00',
      '2026-11-24T08:11:02Z',
    ])
      expect(utcTimestamp(text)).toBeNull();
    // What the database sends, through a lean statement, equals what MikroORM hydrates (first test) and the instant stored.
    const [row] = await lean(VrRoom, { columns: ['updatedAt'], where: 'name = $1' }).all(
      scope(org.admin.tenantId),
      'A',
    );
    const stored = await stack.services.orm.em
      .getConnection()
      .execute<{ ms: string }[]>(
        `select (extract(epoch from date_trunc('milliseconds', updated_at)) * 1000)::bigint::text as ms from vr_rooms where tenant_id = ? and name = 'A'`,
        [org.admin.tenantId],
      );
    expect(row.updatedAt.getTime()).toBe(Number(stored[0].ms));
  });

  it("pages by a column and the id after a cursor's position, which names no row: a deleted one, or another tenant's, reads nothing", async () => {
    const page = lean(VrRoom, {
      columns: ['id', 'name'],
      where: keysetAfter('vr_rooms', 'name', '$1::text', '$2::uuid', "''"),
      orderBy: 'name asc, id asc',
      limit: 2,
    });
    expect(page.sql(stack.services.orm)).toMatch(
      /\(vr_rooms\.name, vr_rooms\.id\) > \(coalesce\(\$2::text, ''\), coalesce\(\$3::uuid, '0{8}-0{4}-0{4}-0{4}-0{12}'::uuid\)\)/,
    );
    const mine = scope(org.admin.tenantId);
    const first = await page.all(mine, null, null);
    expect(first.map((r) => r.name)).toEqual(['A', 'B']);
    expect((await page.all(mine, first[1].name, first[1].id)).map((r) => r.name)).toEqual(['C']);
    // The position is the cursor's own: a row that no longer exists there still starts the page after it.
    expect((await page.all(mine, 'B', 'ffffffff-ffff-ffff-ffff-ffffffffffff')).map((r) => r.name)).toEqual(['C']);
    // The statement's tenant condition holds: another organisation's position only positions among this one's rows.
    const [theirs] = await allRooms.all(scope(other.admin.tenantId));
    expect((await page.all(mine, '', theirs.id)).map((r) => r.name)).toEqual(['A', 'B']);
    expect(() => lean(User, { where: 'id = $tenant' }).sql(stack.services.orm)).toThrow(
      /\$tenant in a statement without a tenant/,
    );
  });

  it("reads a row by id or answers 404: unknown, another organisation's, or not a UUID", async () => {
    const byId = lean(VrRoom, { columns: ['id', 'name'], where: 'id = $1' });
    const [mine] = await allRooms.all(scope(org.admin.tenantId));
    expect((await byId.byId('Room', scope(org.admin.tenantId), mine.id)).id).toBe(mine.id);
    for (const id of [mine.id, '00000000-0000-7000-8000-000000000000', 'not-a-uuid']) {
      await expect(byId.byId('Room', scope(other.admin.tenantId), id)).rejects.toMatchObject({
        status: 404,
        code: 'not_found',
      });
    }
  });
});
