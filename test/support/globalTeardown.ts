import { admin, templateDb } from './db';

/** Once per run, after every file: the template database is dropped (each file already dropped its own). */
export default async function globalTeardown(): Promise<void> {
  await admin((c) => c.query(`drop database if exists "${templateDb}" with (force)`));
}
