import { join } from 'node:path';
import { defineConfig, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { loadConfig, type Config } from './lib/config';
import { allEntities } from './entities';

/** MikroORM options for a given configuration; migrations live in migrations/ (compiled to dist/migrations). */
export function ormOptions(config: Pick<Config, 'DATABASE_URL' | 'DATABASE_POOL_MAX'>): Options {
  return defineConfig({
    clientUrl: config.DATABASE_URL,
    entities: allEntities,
    extensions: [Migrator],
    pool: { min: 0, max: config.DATABASE_POOL_MAX },
    ensureDatabase: false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
    // onCreate hooks (ids, timestamps) run in em.create(), so a new entity's id is known before the flush.
    processOnCreateHooksEarly: true,
    discovery: { warnWhenNoEntities: true },
    migrations: {
      tableName: 'mikro_orm_migrations',
      // Compiled (dist/) the migrations are .js beside this file; under tsx or jest they are the .ts sources.
      path: join(__dirname, 'migrations'),
      glob: __filename.endsWith('.js') ? '!(*.d).js' : '!(*.d).ts',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      emit: 'ts',
      silent: true,
    },
  });
}

export default ormOptions(loadConfig());
