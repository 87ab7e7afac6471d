import { migratorOf } from '../../lib/db';
import { startStack, type TestStack } from '../support/stack';

/** Committed migrations are reversible and match the entities exactly. */
describe('migrations', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  it('leave nothing between the entities and the migrated schema', async () => {
    const sql = await (await stack.asOwner()).schema.getUpdateSchemaSQL({ wrap: false });
    expect(sql.trim()).toBe('');
  });

  it('revert to an empty database and apply again', async () => {
    // Migrating is the owner's work; the app's own role may not alter the schema.
    const owner = await stack.asOwner();
    const migrator = migratorOf(owner);
    const applied = (await migrator.getExecutedMigrations()).map((m) => m.name);
    expect(applied.length).toBeGreaterThan(0);
    await migrator.down({ to: 0 });
    const tables = await owner.em
      .getConnection()
      .execute<{ n: string }[]>(
        `select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name <> 'mikro_orm_migrations'`,
      );
    expect(Number(tables[0].n)).toBe(0);
    await migrator.up();
    expect((await migrator.getExecutedMigrations()).map((m) => m.name)).toEqual(applied);
    expect((await owner.schema.getUpdateSchemaSQL({ wrap: false })).trim()).toBe('');
  });
});
