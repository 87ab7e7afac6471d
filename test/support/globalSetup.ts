import { execFileSync } from 'node:child_process';
import { admin, databaseUrl, namespace, templateDb } from './db';

/**
 * Once per run: a template database migrated with the committed migrations (through the real `npm run
 * migrate` entry), from which every test file copies its own database. Leftover databases of this
 * namespace from an interrupted run are dropped.
 */
export default async function globalSetup(): Promise<void> {
  await admin(async (c) => {
    const { rows } = await c.query<{ datname: string }>(`select datname from pg_database where datname like $1`, [`pt\\_${namespace}\\_%`]);
    for (const { datname } of rows) await c.query(`drop database if exists "${datname}" with (force)`);
    await c.query(`drop database if exists "${templateDb}" with (force)`);
  });
  execFileSync(process.execPath, [require.resolve('tsx/cli'), 'bin/migrate.ts'], {
    env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: databaseUrl(templateDb), LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
