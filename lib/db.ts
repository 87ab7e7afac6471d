import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { ormOptions } from '../mikro-orm.config';
import type { Config } from './config';

export type Orm = MikroORM;
export type Em = EntityManager;

export async function createOrm(config: Pick<Config, 'DATABASE_URL' | 'DATABASE_POOL_MAX'>): Promise<Orm> {
  return MikroORM.init(ormOptions(config));
}

/** Creates the database when missing (local start, tests), then applies pending migrations. */
export async function migrate(orm: Orm): Promise<string[]> {
  await orm.schema.ensureDatabase();
  const applied = await orm.getMigrator().up();
  return applied.map((m) => m.name);
}
