import { join } from 'node:path';
import { defineConfig, type Options } from '@mikro-orm/postgresql';
import type { Client } from 'pg';
import type { Config } from './lib/config';
import type { DbBounds } from './lib/db';
import type { DbLiveness } from './lib/dbLiveness';
import { allEntities } from './entities';

/**
 * MikroORM options for a given configuration; migrations live in migrations/ (compiled to dist/migrations).
 * With `bounds`, connecting, waiting for a pooled connection and each statement are bounded (lib/db.ts); with
 * `liveness`, a silent statement is told from a stalled link by asking PostgreSQL (boundStatements).
 */
export function ormOptions(
  config: Pick<Config, 'DATABASE_URL' | 'DATABASE_POOL_MAX'>,
  bounds?: DbBounds,
  liveness?: DbLiveness,
): Options {
  return defineConfig({
    clientUrl: config.DATABASE_URL,
    entities: allEntities,
    pool: {
      min: 0,
      max: config.DATABASE_POOL_MAX,
      ...(bounds?.statementMs
        ? {
            afterCreate: (conn: Client, done: (err: Error | null, conn: Client) => void) =>
              done(null, boundStatements(conn, bounds, liveness)),
          }
        : {}),
    },
    ...(bounds
      ? {
          driverOptions: {
            acquireConnectionTimeout: bounds.acquireMs,
            // knex warns on every connection an outage killed; the failed statement is reported where it failed.
            log: {
              warn: (message: string) => (/^Connection Error/.test(message) ? undefined : console.error(message)),
            },
            connection: {
              connectionTimeoutMillis: bounds.connectMs,
              statement_timeout: bounds.statementMs,
              keepAlive: true,
            },
          },
        }
      : {}),
    ensureDatabase: false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
    // By default find() inner-joins every to-one reference to re-apply its tenant filter. A row carries its own
    // tenant_id, so the joins check nothing; under FOR UPDATE they lock the referenced rows too, and a row whose
    // reference changed while the lock was awaited (a deal moved to another stage) fails the re-checked join:
    // the waiting request read "not found" for a row that exists.
    autoJoinRefsForFilters: false,
    // onCreate hooks (ids, timestamps) run in em.create(), so a new entity's id is known before the flush.
    processOnCreateHooksEarly: true,
    discovery: { warnWhenNoEntities: true },
    migrations: {
      tableName: 'mikro_orm_migrations',
      // Compiled (dist/) the migrations are .js beside this file; under tsx or jest they are the .ts sources.
      path: join(__dirname, 'migrations'),
      glob: __filename.endsWith('.js') ? '!(*.d).js' : '!(*.d).ts',
      transactional: true,
      // One transaction per migration, not one for the run: a migration may then build an index CONCURRENTLY
      // (isTransactional() false, e.g. the telemetry partitions), which PostgreSQL refuses inside a transaction.
      allOrNothing: false,
      snapshot: false,
      emit: 'ts',
      silent: true,
    },
  });
}

type QueryCallback = (err: Error | null, result?: unknown) => void;
type Socket = { destroy(err: Error): void; on(event: 'data', listener: () => void): void };

/**
 * PostgreSQL's statement_timeout stops a slow statement, but a stalled link never delivers that answer. A
 * statement silent for `askAfterMs` makes the pool ask PostgreSQL on its own connection whether this
 * connection's backend is still working on it (lib/dbLiveness.ts): a row lock or a busy server is waited for,
 * up to statement_timeout; no answer, or a backend that is not working on it while nothing arrived on this link,
 * destroys the connection, which fails the statement (and any transaction on it) at once and keeps the dead
 * connection out of the pool. Without a liveness check (jobs) a statement silent past `statementMs` is cut.
 */
function boundStatements(conn: Client, bounds: DbBounds, liveness?: DbLiveness): Client {
  const query = conn.query.bind(conn) as (...args: unknown[]) => unknown;
  const socket = (conn as unknown as { connection: { stream: Socket } }).connection.stream;
  const cutAfterMs = bounds.statementMs + 50;
  // Bytes received: a backend found idle while its answer is still arriving has answered.
  let heard = 0;
  socket.on('data', () => {
    heard++;
    liveness?.heard();
  });
  conn.query = ((...args: unknown[]) => {
    const at = args.findIndex((a) => typeof a === 'function');
    if (at < 0) return query(...args);
    const callback = args[at] as QueryCallback;
    const sentAt = Date.now();
    let answered = false;
    let timer: NodeJS.Timeout;
    const cut = (why: string) => socket.destroy(new Error(`query timed out: ${why}`));
    const check = () => {
      if (Date.now() - sentAt >= cutAfterMs || !liveness) return cut(`no answer within ${cutAfterMs} ms`);
      const before = heard;
      void liveness.working((conn as unknown as { processID: number }).processID).then((working) => {
        if (answered) return;
        if (working || heard !== before) timer = setTimeout(check, bounds.askAfterMs);
        else cut(`no answer within ${Date.now() - sentAt} ms and PostgreSQL is not working on it`);
      });
    };
    timer = setTimeout(check, liveness ? bounds.askAfterMs : cutAfterMs);
    args[at] = (err: Error | null, result?: unknown) => {
      answered = true;
      clearTimeout(timer);
      callback(err, result);
    };
    return query(...args);
  }) as Client['query'];
  return conn;
}
