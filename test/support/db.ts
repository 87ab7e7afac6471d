import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { Client, escapeIdentifier, escapeLiteral } from 'pg';

export const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * Test runs of several checkouts may share a PostgreSQL and a Redis: every database and key is named after
 * TEST_NAMESPACE, by default the checkout's folder name plus a hash of its path, so two clones never drop
 * each other's databases.
 */
const root = resolve(__dirname, '../..');
export const namespace = (
  process.env.TEST_NAMESPACE ??
  `${basename(root).slice(0, 12)}_${createHash('sha256').update(root).digest('hex').slice(0, 6)}`
)
  .replace(/\W/g, '_')
  .toLowerCase();
export const templateDb = `pt_template_${namespace}`;

/**
 * The dynos' role of the test stacks (one per namespace; a cluster's roles are shared by its databases): it
 * reads and writes rows only, as in production, while migrations run as ADMIN_URL's role, which owns every
 * table. Every test thus proves the app works without owner rights (test/platform/databaseRoles.test.ts).
 */
export const runtimeRole = `pt_${namespace}_app`;
const RUNTIME_PASSWORD = 'pt-runtime-role';

/** ADMIN_URL's role (the owner of every table) on database `name`. */
export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The runtime role on database `name`. */
export function runtimeDatabaseUrl(name: string): string {
  const url = new URL(databaseUrl(name));
  url.username = runtimeRole;
  url.password = RUNTIME_PASSWORD;
  return url.toString();
}

/** Creates the runtime role when missing (login, nothing else: its rights are granted per database by migrating). */
export async function ensureRuntimeRole(): Promise<void> {
  await admin(async (c) => {
    const { rowCount } = await c.query('select 1 from pg_roles where rolname = $1', [runtimeRole]);
    const verb = rowCount ? 'alter' : 'create';
    await c.query(
      `${verb} role ${escapeIdentifier(runtimeRole)} login nosuperuser nocreatedb nocreaterole noinherit password ${escapeLiteral(RUNTIME_PASSWORD)}`,
    );
    // A test's commits need not survive a crash of the server: without waiting for the WAL flush a commit costs
    // 2 ms instead of 5 here. Set on the test role only, so the shared server and other roles are untouched.
    await c.query(`alter role ${escapeIdentifier(runtimeRole)} set synchronous_commit = off`);
  });
}

export async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh database for one test file, copied from the migrated template (fast: no migrations per file). */
export async function createTestDatabase(): Promise<string> {
  const name = `pt_${namespace}_${process.env.JEST_WORKER_ID ?? '0'}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await admin((c) => c.query(`create database "${name}" template "${templateDb}"`));
  return name;
}

export async function dropTestDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`drop database if exists "${name}" with (force)`));
}

/**
 * Drops every database of this namespace, a few at a time: once per run, after the last file. A file does not
 * drop its own: PostgreSQL's DROP DATABASE forces an immediate checkpoint of the whole cluster (1-2 s here, and
 * every other file's writes flushed with it); after the run, the first drop flushes and the others find nothing.
 */
export async function dropNamespaceDatabases(): Promise<void> {
  const names = await admin(async (c) => {
    const { rows } = await c.query<{ datname: string }>(`select datname from pg_database where datname like $1`, [
      `pt\\_${namespace}\\_%`,
    ]);
    return rows.map((r) => r.datname);
  });
  const next = () => names.pop();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let name = next(); name; name = next()) await dropTestDatabase(name);
    }),
  );
}
