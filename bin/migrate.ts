import { ConfigError, loadConfig } from '../lib/config';
import { createOrm, migrate, migratorOf } from '../lib/db';
import { ensurePlatformAdmin } from '../domain/identity/bootstrapAdmin';

/**
 * `npm run migrate` and the release phase (Procfile `release`): creates the database if missing, applies
 * pending migrations, then makes ADMIN_EMAIL a platform administrator when it and ADMIN_PASSWORD are set
 * (created, or promoted with its password untouched). `down` reverts the last migration.
 */
async function main() {
  const config = loadConfig();
  const orm = await createOrm(config);
  try {
    if (process.argv[2] === 'down') {
      const reverted = await migratorOf(orm).down();
      console.log(reverted.length ? `reverted ${reverted.map((m) => m.name).join(', ')}` : 'nothing to revert');
    } else {
      const applied = await migrate(orm, config);
      console.log(applied.length ? `applied ${applied.join(', ')}` : 'database is up to date');
      if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
        const { created } = await ensurePlatformAdmin(orm.em.fork(), config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
        console.log(created ? `created platform administrator ${config.ADMIN_EMAIL}` : `${config.ADMIN_EMAIL} is a platform administrator`);
      }
    }
  } finally {
    await orm.close(true);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
