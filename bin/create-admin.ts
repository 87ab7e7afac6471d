import { loadConfig } from '../lib/config';
import { createOrm, migrate } from '../lib/db';
import { ensurePlatformAdmin } from '../domain/identity/bootstrapAdmin';

/** `npm run admin:create -- <email> <password>`: creates (or promotes) a platform administrator. */
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
    const { created } = await ensurePlatformAdmin(orm.em.fork(), email, password);
    console.log(created ? `created platform administrator ${email}` : `${email} is a platform administrator`);
  } finally {
    await orm.close(true);
  }
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
