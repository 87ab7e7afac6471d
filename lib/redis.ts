import type { ConnectionOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import type { Config } from './config';

/**
 * Redis connections. Commands go through one auto-pipelined client; pub/sub needs a dedicated one.
 * `maxRetriesPerRequest: 1` makes a command fail fast when Redis is down instead of queueing forever,
 * so /ready answers 503 and requests answer 503 rather than hang.
 */
export function createRedis(config: Pick<Config, 'REDIS_URL'>, options: RedisOptions = {}): Redis {
  return new Redis(config.REDIS_URL, {
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    ...options,
  });
}

/** Quits politely when connected; otherwise disconnects, so closing never waits on a Redis that is down. */
export async function closeRedis(conn: Redis): Promise<void> {
  if (conn.status === 'ready') await conn.quit().catch(() => conn.disconnect());
  else conn.disconnect();
}

/** Options for BullMQ's own connections: workers block on Redis and must retry forever. */
export function bullConnection(config: Pick<Config, 'REDIS_URL'>): ConnectionOptions {
  return { url: config.REDIS_URL, maxRetriesPerRequest: null };
}

/** Every key of the suite lives under the deployment's namespace, so deployments (and test workers) share a Redis safely. */
export const keyspace = (namespace: string) => (...parts: (string | number)[]) => [namespace, ...parts].join(':');
export type Keyspace = ReturnType<typeof keyspace>;
