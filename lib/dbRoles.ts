import { escapeIdentifier } from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ConfigError } from './config';

/**
 * Two PostgreSQL roles. The owner (MIGRATION_DATABASE_URL) creates and alters the schema in the release phase;
 * the runtime role (DATABASE_URL) of the web, worker and clock dynos reads and writes rows only. A trigger that
 * makes a table append-only (hr_clock_events, issued invoices) or a check then binds everyone holding the
 * dynos' credentials: only a table's owner may disable its triggers, alter or drop it.
 */

/** Privileges of the runtime role, granted by the owner after every migration run (idempotent). */
function grants(runtime: string): string {
  const r = escapeIdentifier(runtime);
  return [
    `grant usage on schema public to ${r}`,
    `grant select, insert, update, delete on all tables in schema public to ${r}`,
    `grant usage, select on all sequences in schema public to ${r}`,
    // Tables and sequences the owner creates later (the next release's migrations) are covered at once.
    `alter default privileges in schema public grant select, insert, update, delete on tables to ${r}`,
    `alter default privileges in schema public grant usage, select on sequences to ${r}`,
    // Which migrations ran is the owner's record; the runtime role may read it (a release run as it finds nothing to do).
    `revoke insert, update, delete on mikro_orm_migrations from ${r}`,
  ].join(';\n');
}

interface RuntimeRights {
  superuser: boolean;
  actsAsOwner: boolean;
  ownedTables: number;
}

/** What would let the runtime role alter the schema anyway: superuser, membership of the owner, owned tables. */
async function runtimeRights(owner: EntityManager, runtime: string): Promise<RuntimeRights> {
  const [row] = await owner
    .getConnection()
    .execute<{ superuser: boolean; acts_as_owner: boolean; owned_tables: number }[]>(
      `select r.rolsuper or r.rolbypassrls as superuser, pg_has_role(r.rolname, current_user, 'MEMBER') as acts_as_owner,
            (select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relowner = r.oid) as owned_tables
       from pg_roles r where r.rolname = ?`,
      [runtime],
    );
  return { superuser: row.superuser, actsAsOwner: row.acts_as_owner, ownedTables: row.owned_tables };
}

/**
 * Grants the runtime role its row access after migrating, and refuses (in production) a setup where it could
 * alter the schema: the same role as the owner, a superuser, a member of the owner, or the owner of tables (a
 * deployment that ran as one role before: README, "Database roles").
 */
export async function grantRuntimeRole(owner: EntityManager, runtime: string, production: boolean): Promise<void> {
  const [{ role: ownerRole }] = await owner.getConnection().execute<{ role: string }[]>('select current_user as role');
  if (ownerRole === runtime) {
    if (production)
      throw new ConfigError(
        `Invalid configuration: DATABASE_URL and MIGRATION_DATABASE_URL both connect as ${runtime}; the dynos' role must not own the schema (README, "Database roles")`,
      );
    return;
  }
  await owner.getConnection().execute(grants(runtime));
  const rights = await runtimeRights(owner, runtime);
  const problems = [
    ...(rights.superuser ? [`${runtime} is a superuser`] : []),
    ...(rights.actsAsOwner ? [`${runtime} is a member of ${ownerRole}`] : []),
    ...(rights.ownedTables
      ? [
          `${runtime} owns ${rights.ownedTables} objects in schema public (REASSIGN OWNED BY ${runtime} TO ${ownerRole})`,
        ]
      : []),
  ];
  if (problems.length && production)
    throw new ConfigError(
      `Invalid configuration: the role of DATABASE_URL can alter the schema: ${problems.join('; ')} (README, "Database roles")`,
    );
}
