/**
 * How each table distributes by organisation (the shape Citus needs to distribute by tenant_id), read from the
 * catalogue (catalogue.ts) and checked by test/platform/distribution.test.ts; docs/scale-out.md lists it table by
 * table. Pure: the catalogue comes in, the verdicts go out.
 *
 *  - A tenant table has a tenant_id column: distributed by it. Its rows never meet another tenant's, so every
 *    primary and unique key must lead with tenant_id (a key on `id` alone cannot be enforced per shard), and every
 *    foreign key to another tenant table must include it (the two rows then live on one shard).
 *  - A reference table has none: replicated to every node (users, plans, sessions' revocations, ...). It must be
 *    listed in REFERENCE_TABLES, so a new table is a decision, not an accident.
 */

/** Cross-tenant tables: reference data, replicated whole to every node (Citus `create_reference_table`). */
export const REFERENCE_TABLES: Readonly<Record<string, string>> = {
  users: 'accounts exist before and across organisations',
  organizations:
    'the tenants themselves, keyed by the id their rows carry as tenant_id (on Citus: distributed by id, co-located with their rows)',
  plans: 'the price list',
  addons: 'the add-on catalogue',
  promotions: 'platform-wide promotion codes',
  email_tokens: 'account links, before an organisation is chosen',
  external_identities: 'sign-in identities of a user',
  token_revocations: 'revoked tokens of users and sessions, checked before any tenant is known',
  membership_roles: 'join rows of memberships and roles, keyed by the membership (its tenant through it)',
  broadcasts: 'platform announcements to every organisation',
  staged_jobs: 'the jobs outbox of every module (one relay reads it whole)',
  knowledge_stats_flushes: 'the stats flush ledger of the platform',
  crm_import_payloads: 'import bytes keyed by their import (its tenant through it)',
  crm_import_upload_rows: 'uploaded spreadsheet rows keyed by their upload (its tenant through it)',
  identity_totp_factors: "a user's second factor, across organisations",
  identity_passkeys:
    "a user's passkeys, found by credential id before any organisation is known (password-less sign-in)",
  identity_recovery_codes: "a user's recovery codes, across organisations",
  mikro_orm_migrations: 'the migrator ledger',
};

export interface CatalogueKey {
  name: string;
  kind: 'primary' | 'unique';
  columns: string[];
}

export interface CatalogueForeignKey {
  name: string;
  columns: string[];
  references: string;
  referencedColumns: string[];
}

export interface CatalogueTable {
  name: string;
  columns: string[];
  tenantIdNullable: boolean;
  keys: CatalogueKey[];
  foreignKeys: CatalogueForeignKey[];
}

export type Distribution = 'distributed' | 'reference' | 'undeclared';

export interface TablePlan {
  table: string;
  distribution: Distribution;
  /** What keeps the table from distributing as planned (empty: it does). */
  findings: string[];
}

export function planTable(table: CatalogueTable, tenantTables: ReadonlySet<string>): TablePlan {
  const hasTenant = table.columns.includes('tenant_id');
  if (!hasTenant) {
    const declared = table.name in REFERENCE_TABLES;
    return {
      table: table.name,
      distribution: declared ? 'reference' : 'undeclared',
      findings: declared
        ? []
        : ['no tenant_id and not in REFERENCE_TABLES (domain/platform/distribution/plan.ts): decide which it is'],
    };
  }
  const findings: string[] = [];
  if (table.tenantIdNullable) findings.push('tenant_id is nullable');
  if (!table.keys.some((k) => k.kind === 'primary')) findings.push('no primary key');
  for (const key of table.keys)
    if (key.columns[0] !== 'tenant_id')
      findings.push(`${key.kind} key ${key.name} (${key.columns.join(', ')}) does not lead with tenant_id`);
  for (const fk of table.foreignKeys)
    if (tenantTables.has(fk.references) && !fk.columns.includes('tenant_id'))
      findings.push(`foreign key ${fk.name} (${fk.columns.join(', ')}) to ${fk.references} does not include tenant_id`);
  return { table: table.name, distribution: 'distributed', findings };
}

/** The plan of every table of the catalogue, by table name. */
export function planCatalogue(tables: readonly CatalogueTable[]): TablePlan[] {
  const tenantTables = new Set(tables.filter((t) => t.columns.includes('tenant_id')).map((t) => t.name));
  return [...tables].sort((a, b) => a.name.localeCompare(b.name)).map((t) => planTable(t, tenantTables));
}
