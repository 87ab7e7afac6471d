import { createServer } from 'node:net';
import supertest from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { startWeb, type WebServer } from '../../api/server';
import { createServices, type Services } from '../../domain/services';
import { loadConfig, type Config } from '../../lib/config';
import { createOrm, type Orm } from '../../lib/db';
import { createLogger } from '../../lib/logger';
import { startWorkers, type WorkerPool } from '../../workers/main';
import { createTestDatabase, databaseUrl, namespace, runtimeDatabaseUrl } from './db';
import type { TcpProxy } from './proxy';
import { scaled } from './timeScale';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
export const TEST_INTERNAL_SECRET = 'test-internal-secret';

/** A running app instance of a test file: real PostgreSQL, Redis, HTTP server and (optionally) workers. */
export interface TestStack {
  config: Config;
  services: Services;
  web: WebServer;
  url: string;
  http: TestAgent;
  workers: WorkerPool | null;
  /** Env of this stack, to start a second instance on the same database and Redis namespace. */
  env: Record<string, string>;
  /**
   * The ORM of the role that owns the tables (the stack itself runs as the runtime role, which may not alter
   * them): for tests that alter the schema or bypass its triggers on purpose. Opened on first use.
   */
  asOwner(): Promise<Orm>;
  close(): Promise<void>;
}

export interface StackOptions {
  /** Extra or overriding environment variables. */
  env?: Record<string, string>;
  /** Run workers in this process: true for every queue, or a list of queue names. Default true. */
  workers?: boolean | string[];
  /** Start another instance sharing this one's database and Redis namespace (like a second dyno). */
  sharing?: TestStack;
  /** Reach PostgreSQL and/or Redis through these proxies (test/support/proxy.ts), to cut or stall the links. */
  via?: { postgres?: TcpProxy; redis?: TcpProxy };
  /** Collect the instance's log lines (JSON) here instead of writing them out; set LOG_LEVEL in `env`. */
  logs?: string[];
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Starts an app instance. The first instance of a file gets its own database and Redis namespace. */
export async function startStack(options: StackOptions = {}): Promise<TestStack> {
  const port = await freePort();
  const ownDb = options.sharing ? null : await createTestDatabase();
  const base: Record<string, string> = options.sharing
    ? { ...options.sharing.env }
    : {
        NODE_ENV: 'test',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        // The dynos' role (rows only) and the owner's, as in production (test/support/db.ts).
        DATABASE_URL: runtimeDatabaseUrl(ownDb!),
        MIGRATION_DATABASE_URL: databaseUrl(ownDb!),
        DATABASE_POOL_MAX: '5',
        REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
        REDIS_NAMESPACE: `t_${namespace}_${ownDb!.slice(-10)}`,
        JWT_SECRET: TEST_JWT_SECRET,
        INTERNAL_SECRET: TEST_INTERNAL_SECRET,
        JOB_RETRY_DELAY_MS: '20',
        STORAGE_DIR: `/tmp/platform-test-storage/${ownDb}`,
        PRESENCE_TTL_SECONDS: '60',
        // A loaded CI machine can block the event loop past the production bounds (500/600 ms), which would
        // read as an outage; tests of outages go through a proxy and keep the production bounds.
        ...(options.via
          ? {}
          : {
              REDIS_TIMEOUT_MS: String(scaled(3000)),
              DATABASE_TIMEOUT_MS: String(scaled(3000)),
              DATABASE_WAIT_TIMEOUT_MS: String(scaled(10_000)),
            }),
      };
  const env: Record<string, string> = {
    ...base,
    ...options.env,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
  if (options.via?.postgres) env.DATABASE_URL = options.via.postgres.via(env.DATABASE_URL);
  if (options.via?.redis) env.REDIS_URL = options.via.redis.via(env.REDIS_URL);
  const config = loadConfig(env);
  const logs = options.logs;
  const services = await createServices(
    config,
    createLogger(config, logs && { write: (line: string) => void logs.push(line) }),
  );
  const web = await startWeb(services, port);
  const workerOption = options.workers ?? true;
  const workers =
    workerOption === false ? null : startWorkers(services, workerOption === true ? undefined : workerOption);
  let closed = false;
  let owner: Promise<Orm> | null = null;
  return {
    config,
    services,
    web,
    url: web.url,
    http: supertest(web.url),
    workers,
    env,
    asOwner: () => (owner ??= createOrm({ DATABASE_URL: env.MIGRATION_DATABASE_URL, DATABASE_POOL_MAX: 1 })),
    async close() {
      if (closed) return;
      closed = true;
      await web.close();
      await workers?.close();
      await owner?.then((orm) => orm.close(true));
      if (ownDb) {
        const keys = await services.redis.keys(`${config.REDIS_NAMESPACE}:*`).catch(() => [] as string[]);
        if (keys.length) await services.redis.del(...keys).catch(() => undefined);
      }
      await services.close();
      // Its database is dropped after the run with the others (dropNamespaceDatabases: a drop checkpoints).
    },
  };
}
