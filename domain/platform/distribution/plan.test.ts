import { planCatalogue, planTable, type CatalogueTable } from './plan';

const table = (over: Partial<CatalogueTable> & { name: string }): CatalogueTable => ({
  columns: ['id', 'tenant_id'],
  tenantIdNullable: false,
  keys: [{ name: `${over.name}_pkey`, kind: 'primary', columns: ['tenant_id', 'id'] }],
  foreignKeys: [],
  ...over,
});
const tenants = new Set(['crm_customers', 'crm_deals']);

describe('planTable', () => {
  it.each<[string, CatalogueTable, string[]]>([
    ['a tenant table keyed by (tenant_id, id)', table({ name: 'crm_customers' }), []],
    [
      'a primary key on id alone',
      table({ name: 'crm_customers', keys: [{ name: 'crm_customers_pkey', kind: 'primary', columns: ['id'] }] }),
      ['primary key crm_customers_pkey (id) does not lead with tenant_id'],
    ],
    [
      'a unique key without tenant_id first',
      table({
        name: 'crm_customers',
        keys: [
          { name: 'crm_customers_pkey', kind: 'primary', columns: ['tenant_id', 'id'] },
          { name: 'crm_customers_slug_unique', kind: 'unique', columns: ['slug', 'tenant_id'] },
        ],
      }),
      ['unique key crm_customers_slug_unique (slug, tenant_id) does not lead with tenant_id'],
    ],
    [
      'a foreign key to a tenant table without tenant_id',
      table({
        name: 'crm_deals',
        foreignKeys: [
          {
            name: 'crm_deals_customer_fk',
            columns: ['customer_id'],
            references: 'crm_customers',
            referencedColumns: ['id'],
          },
        ],
      }),
      ['foreign key crm_deals_customer_fk (customer_id) to crm_customers does not include tenant_id'],
    ],
    [
      'a foreign key to a reference table (users) needs no tenant_id',
      table({
        name: 'crm_deals',
        foreignKeys: [
          { name: 'crm_deals_owner_fk', columns: ['owner_id'], references: 'users', referencedColumns: ['id'] },
        ],
      }),
      [],
    ],
    [
      'a nullable tenant_id without a primary key',
      table({ name: 'crm_deals', tenantIdNullable: true, keys: [] }),
      ['tenant_id is nullable', 'no primary key'],
    ],
  ])('%s', (_, t, findings) => {
    expect(planTable(t, tenants)).toEqual({ table: t.name, distribution: 'distributed', findings });
  });

  it('marks listed cross-tenant tables as reference data and refuses unlisted ones', () => {
    expect(planTable(table({ name: 'users', columns: ['id', 'email'] }), tenants)).toEqual({
      table: 'users',
      distribution: 'reference',
      findings: [],
    });
    const undeclared = planTable(table({ name: 'new_global_thing', columns: ['id'] }), tenants);
    expect(undeclared.distribution).toBe('undeclared');
    expect(undeclared.findings[0]).toMatch(/REFERENCE_TABLES/);
  });

  it('plans a catalogue in table order', () => {
    const plans = planCatalogue([table({ name: 'crm_deals' }), table({ name: 'crm_customers' })]);
    expect(plans.map((p) => p.table)).toEqual(['crm_customers', 'crm_deals']);
  });
});
