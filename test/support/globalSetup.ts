import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin, databaseUrl, dropNamespaceDatabases, ensureRuntimeRole, runtimeDatabaseUrl, templateDb } from './db';

/**
 * Once per run: a template database migrated with the committed migrations (through the real `npm run
 * migrate` entry, as the owner, granting the runtime role), from which every test file copies its own
 * database. Leftover databases of this namespace from an interrupted run are dropped.
 */
export default async function globalSetup(): Promise<void> {
  // The published document, rendered once per configuration for the whole run (api/http/contract.ts); the
  // workers inherit this environment.
  process.env.TEST_OPENAPI_CACHE_DIR = mkdtempSync(join(tmpdir(), 'pt-openapi-'));
  await dropNamespaceDatabases();
  await admin((c) => c.query(`drop database if exists "${templateDb}" with (force)`));
  await ensureRuntimeRole();
  // As in production: migrated by the owner, the runtime role granted row access (copied with the template).
  execFileSync(process.execPath, [require.resolve('tsx/cli'), 'bin/migrate.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      MIGRATION_DATABASE_URL: databaseUrl(templateDb),
      DATABASE_URL: runtimeDatabaseUrl(templateDb),
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
