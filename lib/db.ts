import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import Transaction from 'knex/lib/execution/transaction';
import { ormOptions } from '../mikro-orm.config';
import type { Config } from './config';
import { onFirstUse } from './lazy';

/**
 * knex (3.2) swallows the failure of a transaction's BEGIN (or SAVEPOINT) and hands the transaction out as
 * begun anyway (knex/knex#4709): MikroORM's first statement in it then failed with "Transaction query already
 * complete", a 500, where a stalled or cut link had failed the BEGIN (a 503). A transaction that ended before
 * its work began is not handed out: its caller gets the BEGIN's own error. test/faults/requests.fault.ts
 */
const onAcquire = Transaction.prototype._onAcquire;
Transaction.prototype._onAcquire = function (this: Transaction, container, connection) {
  return onAcquire.call(this, (transactor) => (this.isCompleted() ? undefined : container(transactor)), connection);
};

export type Orm = MikroORM;
export type Em = EntityManager;

/** Who uses the pool: the request path must fail fast; jobs may run long statements and wait for connections. */
export type DbUse = 'requests' | 'jobs';

/** Milliseconds the pool waits to connect, for a free connection, and for one statement (0: no bound). */
export interface DbBounds {
  connectMs: number;
  acquireMs: number;
  statementMs: number;
}

/**
 * Request path (web dyno, `npm start`): every wait is bounded by DATABASE_TIMEOUT_MS, so a request during an
 * outage, a stalled link or an exhausted pool answers 503 within a second. Jobs (worker and clock dynos):
 * statements and the wait for a connection are bounded by DATABASE_JOB_TIMEOUT_MS, connecting by 5 s; a job
 * that fails because PostgreSQL is down waits for it (workers/outage.ts).
 */
export function dbBounds(config: Pick<Config, 'DATABASE_TIMEOUT_MS' | 'DATABASE_JOB_TIMEOUT_MS'>, use: DbUse): DbBounds {
  const t = config.DATABASE_TIMEOUT_MS;
  if (use === 'requests') return { connectMs: t, acquireMs: t, statementMs: t };
  return { connectMs: 5000, acquireMs: config.DATABASE_JOB_TIMEOUT_MS, statementMs: config.DATABASE_JOB_TIMEOUT_MS };
}

/** The ORM of a dyno; without bounds (release phase, CLI tools) nothing is cut short. */
export async function createOrm(config: Pick<Config, 'DATABASE_URL' | 'DATABASE_POOL_MAX'>, bounds?: DbBounds): Promise<Orm> {
  return MikroORM.init(ormOptions(config, bounds));
}

/**
 * Creates the database when missing (local start, tests), then applies pending migrations, on a connection of
 * its own without `orm`'s bounds: DDL is not request-path work (creating a database alone may take seconds).
 */
export async function migrate(orm: Orm): Promise<string[]> {
  const unbounded = await MikroORM.init(ormOptions({ DATABASE_URL: orm.config.get('clientUrl')!, DATABASE_POOL_MAX: 1 }));
  try {
    await unbounded.schema.ensureDatabase();
    const applied = await migratorOf(unbounded).up();
    return applied.map((m) => m.name);
  } finally {
    await unbounded.close(true);
  }
}

// Only the release phase, `npm start` and tests migrate: request dynos never load the migrator (lib/lazy.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const migrations = onFirstUse(() => require('@mikro-orm/migrations') as typeof import('@mikro-orm/migrations'));

/** The migrator of `orm` (committed migrations in migrations/). */
export function migratorOf(orm: Orm): ReturnType<Orm['getMigrator']> {
  migrations().Migrator.register(orm);
  return orm.getMigrator();
}
