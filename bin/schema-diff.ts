import { loadConfig } from '../lib/config';
import { createOrm, migrate } from '../lib/db';

/**
 * Prints the SQL that would bring the migrated database to the entities' shape. Empty output means the
 * committed migrations match the entities; otherwise put these statements into a migration.
 */
async function main() {
  const config = loadConfig();
  const orm = await createOrm(config);
  try {
    await migrate(orm, config);
    const sql = await orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false });
    console.log(sql.trim() || '-- migrations match the entities');
  } finally {
    await orm.close(true);
  }
}

void main();
