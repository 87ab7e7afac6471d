import { ConfigError, loadConfig } from '../lib/config';
import { createOrm, migrate, migratorOf } from '../lib/db';
import { AppError } from '../lib/errors';
import { bootstrapAdmin } from '../domain/identity/bootstrapAdmin';

/**
 * `npm run migrate` and the release phase (Procfile `release`): creates the database if missing, applies
 * pending migrations, then makes ADMIN_EMAIL a platform administrator when it and ADMIN_PASSWORD are set
 * (domain/identity/bootstrapAdmin.ts: created, promoted, taken over when its address was never confirmed, or refused
 * with the reason, which fails the release). `down` reverts the last migration.
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
        console.log((await bootstrapAdmin(config, orm, config.ADMIN_EMAIL, config.ADMIN_PASSWORD)).message);
      }
    }
  } finally {
    await orm.close(true);
  }
}

main().catch((err: unknown) => {
  // A configuration error or a refused ADMIN_EMAIL (it says why) is a message, not a stack trace.
  console.error(err instanceof ConfigError || err instanceof AppError ? err.message : err);
  process.exit(1);
});
