import { ConfigError } from '../../lib/config';
import { createOrm, migrate } from '../../lib/db';
import { createEmployee, hrOrg, punchAt } from '../support/hr';
import { runtimeRole } from '../support/db';
import { startStack, type TestStack } from '../support/stack';

/**
 * "Immutable by the database" holds against the dynos' own credentials: web, worker and clock connect as a
 * role that reads and writes rows, while the tables belong to the role that migrates. Every test stack runs
 * as that runtime role (test/support/stack.ts), so the whole suite shows the app needs no owner rights.
 */
describe('database roles', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  const asRuntime = (sql: string) => stack.services.orm.em.fork().getConnection().execute(sql);

  it('runs the app as a role that owns nothing and is no superuser', async () => {
    const [me] = await asRuntime(
      `select current_user as role, (select rolsuper from pg_roles where rolname = current_user) as superuser`,
    );
    expect(me).toEqual({ role: runtimeRole, superuser: false });
    const [owned] = await asRuntime(
      `select count(*)::int as n from pg_tables where schemaname = 'public' and tableowner = current_user`,
    );
    expect(owned).toEqual({ n: 0 });
  });

  it('cannot disable the triggers that keep clock events append-only, nor alter, drop or truncate the table', async () => {
    const org = await hrOrg(stack);
    const event = await punchAt(
      stack,
      org.owner,
      org.memberEmployee.id,
      'in',
      new Date(Date.now() - 3_600_000).toISOString(),
    );
    for (const sql of [
      'alter table hr_clock_events disable trigger all',
      'alter table hr_clock_events disable trigger user',
      'alter table inv_invoices disable trigger inv_invoices_immutable',
      'alter table hr_clock_events add column note text',
      'drop trigger if exists hr_clock_events_append_only on hr_clock_events',
      'drop table hr_clock_events',
      'truncate hr_clock_events',
      `create function public.sneaky() returns trigger language plpgsql as $$ begin return null; end $$`,
      'create table public.sneaky (id int)',
    ]) {
      await expect(asRuntime(sql)).rejects.toThrow(/must be owner|permission denied/);
    }
    await expect(asRuntime(`update hr_clock_events set at = now() where id = '${event.id}'`)).rejects.toThrow(
      /append-only: UPDATE refused/,
    );
    // The owner could; the dynos never hold its credentials.
    const owner = (await stack.asOwner()).em.fork().getConnection();
    await owner.execute('begin; alter table hr_clock_events disable trigger all; rollback');
  });

  it('reaches a table a later migration creates without another grant (default privileges)', async () => {
    const owner = (await stack.asOwner()).em.fork().getConnection();
    await owner.execute('create table later_feature (id uuid primary key, n int generated always as identity)');
    await asRuntime(`insert into later_feature (id) values (gen_random_uuid())`);
    expect(await asRuntime('select n from later_feature')).toEqual([{ n: 1 }]);
    await expect(asRuntime('alter table later_feature add column x int')).rejects.toThrow(/must be owner/);
    await owner.execute('drop table later_feature');
  });

  it('serves its routes without owner rights: a manager records a punch and reads it back', async () => {
    const org = await hrOrg(stack);
    const e = await createEmployee(stack, org.owner);
    await punchAt(stack, org.owner, e.id, 'in', new Date(Date.now() - 7_200_000).toISOString());
    const res = await stack.http
      .get('/api/rh/clock-events')
      .set(org.owner.auth)
      .query({ employeeId: e.id })
      .expect(200);
    expect(res.body.items).toHaveLength(1);
  });

  it('refuses, in production, a release without an owner role of its own or whose dynos could alter the schema', async () => {
    const runtimeOrm = stack.services.orm;
    await expect(migrate(runtimeOrm, { MIGRATION_DATABASE_URL: '', production: true })).rejects.toThrow(ConfigError);
    await expect(migrate(runtimeOrm, { MIGRATION_DATABASE_URL: '', production: true })).rejects.toThrow(
      /MIGRATION_DATABASE_URL is required in production/,
    );
    // DATABASE_URL as the owner itself: the dynos would own the schema.
    const ownerAsRuntime = await createOrm({ DATABASE_URL: stack.env.MIGRATION_DATABASE_URL, DATABASE_POOL_MAX: 1 });
    try {
      await expect(
        migrate(ownerAsRuntime, { MIGRATION_DATABASE_URL: stack.env.MIGRATION_DATABASE_URL, production: true }),
      ).rejects.toThrow(/both connect as/);
    } finally {
      await ownerAsRuntime.close(true);
    }
    // Two roles, the runtime one without owner rights: the release goes through (nothing to apply).
    expect(
      await migrate(runtimeOrm, { MIGRATION_DATABASE_URL: stack.env.MIGRATION_DATABASE_URL, production: true }),
    ).toEqual([]);
  });
});
