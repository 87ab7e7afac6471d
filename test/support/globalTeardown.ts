import { rmSync } from 'node:fs';
import { admin, dropNamespaceDatabases, templateDb } from './db';

/** Once per run, after every file: the files' databases (left to this point, see dropNamespaceDatabases) and the template. */
export default async function globalTeardown(): Promise<void> {
  if (process.env.TEST_OPENAPI_CACHE_DIR) rmSync(process.env.TEST_OPENAPI_CACHE_DIR, { recursive: true, force: true });
  await dropNamespaceDatabases();
  await admin((c) => c.query(`drop database if exists "${templateDb}" with (force)`));
}
