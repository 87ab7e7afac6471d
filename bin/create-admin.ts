import { loadConfig } from '../lib/config';
import { createOrm, migrate } from '../lib/db';
import { bootstrapAdmin } from '../domain/identity/bootstrapAdmin';

/**
 * `npm run admin:create -- <email> <password>`: creates a platform administrator, promotes the account when
 * the password is its own, takes over one whose address was never confirmed, and refuses any other (exit 1,
 * saying why): see domain/identity/bootstrapAdmin.ts.
 */
async function main() {
  const [email, password] = process.argv.slice(2);
  if (!email || !password) {
    console.error('usage: npm run admin:create -- <email> <password>');
    process.exit(2);
  }
  const config = loadConfig();
  const orm = await createOrm(config);
  try {
    await migrate(orm, config);
    console.log((await bootstrapAdmin(config, orm, email, password)).message);
  } finally {
    await orm.close(true);
  }
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
