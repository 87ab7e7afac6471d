import { ConfigError, loadConfig } from '../lib/config';
import { createOrm, migrate } from '../lib/db';

/** `npm run migrate` (and the release phase): creates the database if missing, applies pending migrations. `down` reverts the last one. */
async function main() {
  const orm = await createOrm(loadConfig());
  try {
    if (process.argv[2] === 'down') {
      const reverted = await orm.getMigrator().down();
      console.log(reverted.length ? `reverted ${reverted.map((m) => m.name).join(', ')}` : 'nothing to revert');
    } else {
      const applied = await migrate(orm);
      console.log(applied.length ? `applied ${applied.join(', ')}` : 'database is up to date');
    }
  } finally {
    await orm.close(true);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
