import { migratorOf } from '../../lib/db';
import { hrOrg } from '../support/hr';
import { startStack, type TestStack } from '../support/stack';

const MIGRATION = 'Migration20261210000900_hr_leave_type_counting';

/** The counting the migration gives the leave types that exist when it runs: nobody gets more than five weeks. */
describe('HR leave type counting: the migration of existing types', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  it('counts jours ouvrables for types accruing more than 25 days a year, worked days for the others, and reverts', async () => {
    const org = await hrOrg(stack);
    const add = async (code: string, accrualDaysPerMonth: number) => {
      const res = await stack.http
        .post('/api/rh/leave-types')
        .set(org.owner.auth)
        .send({ code, name: code, paid: true, tracksBalance: true, accrualDaysPerMonth, counting: 'ouvres' });
      expect(res.status).toBe(201);
    };
    await add('agreement-ouvres', 2.08);
    await add('generous', 2.5);
    await add('above-25', 2.09);
    const countings = async () => {
      const rows = await stack.services.orm.em
        .fork()
        .execute<{ code: string; counting: string }[]>(
          'select code, counting from hr_leave_types where tenant_id = ? order by code',
          [org.owner.tenantId],
        );
      return Object.fromEntries(rows.map((r) => [r.code, r.counting]));
    };

    // DDL runs as the schema's owner: the app's own role cannot alter tables.
    const owner = await stack.asOwner();
    const migrator = migratorOf(owner);
    await migrator.down({ migrations: [MIGRATION] });
    const columns = await stack.services.orm.em
      .fork()
      .execute<{ column_name: string }[]>(
        "select column_name from information_schema.columns where table_name = 'hr_leave_types' and column_name in ('counting', 'archived_at')",
      );
    expect(columns).toEqual([]);
    await migrator.up({ migrations: [MIGRATION] });
    // Paid leave at 2.5 a month (30 a year) and anything above 25 a year: jours ouvrables, five weeks; the rest as requests were charged so far.
    expect(await countings()).toEqual({
      'above-25': 'ouvrables',
      'agreement-ouvres': 'ouvres',
      generous: 'ouvrables',
      paid: 'ouvrables',
      rtt: 'ouvres',
      sick: 'ouvres',
      unpaid: 'ouvres',
    });
    expect((await owner.schema.getUpdateSchemaSQL({ wrap: false })).trim()).toBe('');
  });
});
