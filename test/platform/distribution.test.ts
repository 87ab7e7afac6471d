import { Client } from 'pg';
import { planCatalogue, REFERENCE_TABLES, type TablePlan } from '../../domain/platform/distribution/plan';
import { readCatalogue } from '../../domain/platform/distribution/store';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../support/db';

/**
 * The migrated catalogue, read the way a distribution by organisation (Citus) reads it: every table is either a
 * tenant table (tenant_id) or declared reference data, and the plan docs/scale-out.md lists is this catalogue's.
 */
describe('distribution by organisation', () => {
  let name: string;
  let plans: TablePlan[];
  beforeAll(async () => {
    name = await createTestDatabase();
    const client = new Client({ connectionString: databaseUrl(name) });
    await client.connect();
    try {
      plans = planCatalogue(await readCatalogue(async (sql) => (await client.query(sql)).rows));
    } finally {
      await client.end();
    }
  });
  afterAll(() => dropTestDatabase(name));

  it('finds every table a tenant table or declared reference data', () => {
    expect(plans.filter((p) => p.distribution === 'undeclared').map((p) => p.table)).toEqual([]);
    expect(plans.filter((p) => p.distribution === 'distributed').length).toBeGreaterThan(50);
  });

  it('lists no reference table that does not exist or has a tenant_id', () => {
    const reference = plans.filter((p) => p.distribution === 'reference').map((p) => p.table);
    expect(Object.keys(REFERENCE_TABLES).sort()).toEqual(reference.sort());
  });
});
