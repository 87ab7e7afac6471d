import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import Transaction from 'knex/lib/execution/transaction';
import { ormOptions } from '../mikro-orm.config';
import { ConfigError, type Config } from './config';
import { DbLiveness } from './dbLiveness';
import { grantRuntimeRole } from './dbRoles';
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
  /**
   * A statement or a wait for a pooled connection without news this long asks PostgreSQL, on a connection of
   * its own and with as long again to answer, whether it is still working on it / still answers
   * (lib/dbLiveness.ts); no answer fails it at once. 0: nothing is asked, a statement is cut at statementMs.
   */
  askAfterMs: number;
}

/**
 * Request path (web dyno, `npm start`): an outage (PostgreSQL down, a stalled or dead link) answers 503 within
 * DATABASE_TIMEOUT_MS, connecting included; waiting one's turn while PostgreSQL answers (a row lock, a busy
 * server, every pooled connection in use) is contention, bounded by DATABASE_WAIT_TIMEOUT_MS only. Jobs
 * (worker and clock dynos): statements and the wait for a connection are bounded by DATABASE_JOB_TIMEOUT_MS,
 * connecting by 5 s; a job that fails because PostgreSQL is down waits for it (workers/outage.ts).
 */
export function dbBounds(
  config: Pick<Config, 'DATABASE_TIMEOUT_MS' | 'DATABASE_WAIT_TIMEOUT_MS' | 'DATABASE_JOB_TIMEOUT_MS'>,
  use: DbUse,
): DbBounds {
  const t = config.DATABASE_TIMEOUT_MS;
  const wait = Math.max(config.DATABASE_WAIT_TIMEOUT_MS, t);
  if (use === 'requests') return { connectMs: t, acquireMs: wait, statementMs: wait, askAfterMs: Math.ceil(t / 2) };
  return {
    connectMs: 5000,
    acquireMs: config.DATABASE_JOB_TIMEOUT_MS,
    statementMs: config.DATABASE_JOB_TIMEOUT_MS,
    askAfterMs: 0,
  };
}

/** The ORM of a dyno; without bounds (release phase, CLI tools) nothing is cut short. */
export async function createOrm(
  config: Pick<Config, 'DATABASE_URL' | 'DATABASE_POOL_MAX'>,
  bounds?: DbBounds,
): Promise<Orm> {
  const liveness = bounds?.askAfterMs
    ? new DbLiveness(config.DATABASE_URL, bounds.askAfterMs, bounds.statementMs)
    : undefined;
  const orm = await MikroORM.init(ormOptions(config, bounds, liveness));
  if (liveness) {
    boundPoolWaits(orm, liveness, bounds!.askAfterMs);
    const close = orm.close.bind(orm);
    orm.close = async (force?: boolean) => {
      await close(force);
      await liveness.close();
    };
  }
  return orm;
}

interface PoolClient {
  pool?: { numFree(): number };
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
}

/**
 * A request waiting for a pooled connection waits while PostgreSQL answers (the pool's connections are busy:
 * contention), up to the pool's own bound; every `askAfterMs` it asks, and fails at once when PostgreSQL does
 * not answer (the busy connections are then dead too). A connection the pool hands over afterwards goes back.
 */
function boundPoolWaits(orm: Orm, liveness: DbLiveness, askAfterMs: number): void {
  const client = orm.em.getKnex().client as unknown as PoolClient;
  const acquire = client.acquireConnection.bind(client);
  client.acquireConnection = () => {
    // A free connection is handed over at once: no wait to watch (its statements are watched).
    if (client.pool && client.pool.numFree() > 0) return acquire();
    return new Promise((resolve, reject) => {
      let settled = false;
      const check = () =>
        void liveness.answering().then((up) => {
          if (settled) return;
          if (up) timer = setTimeout(check, askAfterMs);
          else {
            settled = true;
            reject(new Error(`Unable to acquire a connection: PostgreSQL did not answer within ${askAfterMs} ms`));
          }
        });
      let timer = setTimeout(check, askAfterMs);
      acquire().then(
        (connection) => {
          clearTimeout(timer);
          if (settled) void client.releaseConnection(connection);
          else {
            settled = true;
            resolve(connection);
          }
        },
        (err: unknown) => {
          clearTimeout(timer);
          settled = true;
          reject(err as Error);
        },
      );
    });
  };
}

/**
 * Creates the database when missing (local start, tests), applies pending migrations as the role that owns the
 * schema (MIGRATION_DATABASE_URL; unset: `orm`'s own role, one role for everything, refused in production),
 * then grants the runtime role (`orm`'s, DATABASE_URL) row access only (lib/dbRoles.ts). On a connection of its
 * own without `orm`'s bounds: DDL is not request-path work (creating a database alone may take seconds).
 */
export async function migrate(
  orm: Orm,
  config: Pick<Config, 'MIGRATION_DATABASE_URL' | 'production'>,
): Promise<string[]> {
  if (config.production && !config.MIGRATION_DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration: MIGRATION_DATABASE_URL is required in production (the role that owns the schema; DATABASE_URL is the dynos\' role: README, "Database roles")',
    );
  }
  const owner = await MikroORM.init(
    ormOptions({ DATABASE_URL: config.MIGRATION_DATABASE_URL || orm.config.get('clientUrl')!, DATABASE_POOL_MAX: 1 }),
  );
  try {
    await owner.schema.ensureDatabase();
    const applied = await migratorOf(owner).up();
    const [{ role }] = await orm.em.getConnection().execute<{ role: string }[]>('select current_user as role');
    await grantRuntimeRole(owner.em.fork(), role, config.production);
    return applied.map((m) => m.name);
  } finally {
    await owner.close(true);
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

/**
 * A PostgreSQL array literal of strings for a `?::uuid[]` or `?::text[]` parameter (knex would spread a JS array
 * into a list): each element double-quoted, quotes and backslashes escaped.
 */
export const pgArray = (values: readonly string[]): string =>
  `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
