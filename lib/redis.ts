import { createHash } from 'node:crypto';
import type { ConnectionOptions } from 'bullmq';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import DataHandler from 'ioredis/built/DataHandler';
import type { Config } from './config';
import type { Logger } from './logger';

/**
 * ioredis 6.0.0 reports a reply that no command waits for (the queue was flushed by a socket timeout or a
 * reconnect while replies were in flight) as a connection error, built with `reply.toString()`: a nil reply
 * threw a TypeError there instead, rethrown on the next tick as an uncaught exception that stops the process.
 * The reply only names itself in that message, so a nil one is named "(nil)". test/platform/redisProtocol.test.ts
 */
const handler = DataHandler.prototype as unknown as { shiftCommand(reply: unknown): unknown };
const shiftCommand = handler.shiftCommand;
handler.shiftCommand = function (this: DataHandler, reply: unknown) {
  return shiftCommand.call(this, reply ?? '(nil)');
};

/** Reconnect attempts come at most a second apart, so a Redis that returns is used again within a second or two. */
const reconnectSoon = (attempt: number): number => Math.min(attempt * 100, 1000);

/**
 * A connection to the deployment's Redis: one server (REDIS_URL), or a Redis Cluster (REDIS_CLUSTER_NODES) through
 * ioredis' Cluster client, which sends each command to the master of its key's slot and follows MOVED/ASK
 * redirections. Both speak the same commands; what a cluster adds is that the keys of one command, Lua script,
 * MULTI or pipeline must share a slot: `keyspace` hash-tags keys by family in cluster mode, `Queues` each queue.
 */
export type RedisClient = Redis | Cluster;

type ClusterConfig = Pick<Config, 'REDIS_URL'> & Partial<Pick<Config, 'REDIS_CLUSTER_NODES'>>;

/** The seed nodes of REDIS_CLUSTER_NODES (`host:port` or `redis[s]://[user:password@]host:port`, comma-separated); null: one Redis. */
export function clusterNodes(
  config: Partial<Pick<Config, 'REDIS_CLUSTER_NODES'>>,
): { host: string; port: number; username?: string; password?: string; tls: boolean }[] | null {
  const list = (config.REDIS_CLUSTER_NODES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!list.length) return null;
  return list.map((entry) => {
    const u = new URL(entry.includes('://') ? entry : `redis://${entry}`);
    return {
      host: u.hostname.replace(/^\[|\]$/g, ''),
      port: Number(u.port || 6379),
      username: u.username ? decodeURIComponent(u.username) : undefined,
      password: u.password ? decodeURIComponent(u.password) : undefined,
      tls: u.protocol === 'rediss:',
    };
  });
}

/** Whether this deployment runs on a Redis Cluster. */
export const isCluster = (config: Partial<Pick<Config, 'REDIS_CLUSTER_NODES'>>): boolean =>
  clusterNodes(config) !== null;

/** A Cluster client over the seed nodes: `node` options apply to each node's connection, `cluster` to the client. */
function createCluster(config: ClusterConfig, node: RedisOptions, cluster: ClusterOptions = {}): Cluster | null {
  const seeds = clusterNodes(config);
  if (!seeds) return null;
  const { username, password, tls } = seeds[0];
  const client = new Cluster(
    seeds.map(({ host, port }) => ({ host, port })),
    {
      clusterRetryStrategy: reconnectSoon,
      // A slot moved (a failover, a resharding): the topology is asked again at once.
      retryDelayOnMoved: 0,
      retryDelayOnFailover: 100,
      slotsRefreshTimeout: 2000,
      ...cluster,
      redisOptions: { username, password, ...(tls ? { tls: {} } : {}), connectTimeout: 2000, ...node },
    },
  );
  clusterAddresses.set(client, `redis://${seeds[0].host}:${seeds[0].port}`);
  return client;
}

/** The address a cluster client is watched under (its first seed, as redisWatchUrl says). */
const clusterAddresses = new WeakMap<Cluster, string>();

/**
 * Redis connections of the request path. Commands go through one auto-pipelined client. It fails fast: no
 * offline queue (a command while disconnected fails at once instead of waiting for a reconnect), no retry
 * of a command cut by a disconnect, and a stalled link (no answer within REDIS_TIMEOUT_MS) is dropped and
 * renewed. So during an outage requests answer 503 `dependency_unavailable` at once rather than hang.
 * Pub/sub needs a dedicated connection (see `createSubscriber`).
 */
export function createRedis(
  config: ClusterConfig & Pick<Config, 'REDIS_TIMEOUT_MS'>,
  options: RedisOptions = {},
): RedisClient {
  const { enableAutoPipelining = true, ...rest } = options;
  return (
    createCluster(
      config,
      { maxRetriesPerRequest: 0, socketTimeout: config.REDIS_TIMEOUT_MS, ...rest },
      { enableAutoPipelining, enableOfflineQueue: false },
    ) ??
    new Redis(config.REDIS_URL, {
      enableAutoPipelining,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      socketTimeout: config.REDIS_TIMEOUT_MS,
      retryStrategy: reconnectSoon,
      ...rest,
    })
  );
}

/** The pub/sub connection: it idles between messages, queues its SUBSCRIBEs until connected, resubscribes after a reconnect. */
export function createSubscriber(config: ClusterConfig): RedisClient {
  return (
    createCluster(config, { maxRetriesPerRequest: null }) ??
    new Redis(config.REDIS_URL, {
      maxRetriesPerRequest: null,
      connectTimeout: 2000,
      retryStrategy: reconnectSoon,
    })
  );
}

/** Waits until the connection is ready (commands are refused before), at most `ms`; false if it is not. */
export async function whenReady(conn: RedisClient, ms: number): Promise<boolean> {
  if (conn.status === 'ready') return true;
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      conn.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    conn.on('ready', onReady);
  });
}

/** A Redis URL as logs may show it: scheme, host and port, without credentials (the default port spelt out). */
export function redisAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.hostname}:${u.port || 6379}`;
  } catch {
    return 'redis (unparsable REDIS_URL)';
  }
}

/**
 * What a process knows of one Redis, told in one line per state change: "redis unavailable at <address>:
 * retrying" when a first connection fails, "redis available again" when one is ready again. A process holds
 * several connections to it (commands, pub/sub, queue producer, one per worker queue), each retrying every
 * second during an outage: they all report here, so an outage is two lines, not one per connection and retry.
 */
export class RedisWatch {
  private state: 'unknown' | 'up' | 'down' = 'unknown';
  private downSince = 0;

  constructor(
    private readonly logger: Logger,
    readonly address: string,
  ) {}

  get available(): boolean {
    return this.state === 'up';
  }

  /** Follows an ioredis connection: its errors and its readiness. */
  track(conn: RedisClient): void {
    if (conn.status === 'ready') this.state = 'up';
    conn.on('error', (err: Error) => this.failed(err));
    conn.on('ready', () => this.ready());
  }

  /** An error of a connection to this Redis: the first one after it was up (or unknown) tells the outage. */
  failed(err: Error): true {
    if (this.state === 'down') return true;
    this.state = 'down';
    this.downSince = Date.now();
    this.logger.warn(
      { dependency: 'redis', address: this.address, err: err.message },
      `redis unavailable at ${this.address}: retrying (requests that need it answer 503, jobs wait)`,
    );
    return true;
  }

  private ready(): void {
    if (this.state === 'down')
      this.logger.info(
        { dependency: 'redis', address: this.address, downForMs: Date.now() - this.downSince },
        `redis available again at ${this.address}`,
      );
    this.state = 'up';
  }
}

const watches = new WeakMap<Logger, Map<string, RedisWatch>>();

/** The process's watch of the Redis at `url` (one per logger and host, so each dyno of a test process has its own). */
export function redisWatch(logger: Logger, url: string): RedisWatch {
  const address = redisAddress(url);
  const key = address.replace(/^\w+:/, '');
  let byHost = watches.get(logger);
  if (!byHost) watches.set(logger, (byHost = new Map()));
  let watch = byHost.get(key);
  if (!watch) byHost.set(key, (watch = new RedisWatch(logger, address)));
  return watch;
}

/** Reports a connection's errors and returns to the process's watch of its Redis (RedisWatch), not line by line. */
export function logConnectionErrors(conn: RedisClient, logger: Logger, _name: string): void {
  if (conn instanceof Cluster) {
    redisWatch(logger, clusterAddresses.get(conn) ?? 'redis://cluster').track(conn);
    return;
  }
  const { host, port, path } = conn.options;
  const hostname = host?.includes(':') ? `[${host}]` : (host ?? '127.0.0.1');
  redisWatch(
    logger,
    path ? `redis://${path}` : `${conn.options.tls ? 'rediss' : 'redis'}://${hostname}:${port ?? 6379}`,
  ).track(conn);
}

/** The address a process's RedisWatch of its Redis is keyed by: REDIS_URL, or the first seed of the cluster. */
export function redisWatchUrl(config: ClusterConfig): string {
  const seed = clusterNodes(config)?.[0];
  return seed ? `redis://${seed.host}:${seed.port}` : config.REDIS_URL;
}

/**
 * A generic command sender for libraries that load their Lua scripts once and then call EVALSHA
 * (rate-limit-redis). SCRIPT LOAD is answered here with the script's SHA1, and an EVALSHA that Redis does
 * not know falls back to EVAL: such a library, set up while Redis was down or after Redis forgot its
 * scripts (a restart), works again as soon as Redis answers.
 */
export function scriptTolerantSender(redis: RedisClient): (command: string, ...args: string[]) => Promise<unknown> {
  const scripts = new Map<string, string>();
  return async (command, ...args) => {
    const name = command.toUpperCase();
    if (name === 'SCRIPT' && args[0]?.toUpperCase() === 'LOAD' && args[1] !== undefined) {
      const sha = createHash('sha1').update(args[1]).digest('hex');
      scripts.set(sha, args[1]);
      return sha;
    }
    if (name !== 'EVALSHA') return redis.call(command, ...args);
    try {
      return await redis.call(command, ...args);
    } catch (err) {
      const script = scripts.get(args[0]);
      if (!script || !(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return redis.call('EVAL', script, ...args.slice(1));
    }
  };
}

/** Quits politely when connected; otherwise disconnects, so closing never waits on a Redis that is down. */
export async function closeRedis(conn: RedisClient): Promise<void> {
  if (conn.status === 'ready') await conn.quit().catch(() => conn.disconnect());
  else conn.disconnect();
}

/**
 * Options for BullMQ's own connections (workers block on Redis): commands wait for a reconnect rather than
 * fail, and reconnects come quickly (BullMQ's own strategy backs off to 20 s). On a cluster, a Cluster client of
 * the caller's (BullMQ duplicates it for its blocking connection and leaves it open: close it after the worker).
 */
export function bullConnection(config: ClusterConfig): ConnectionOptions {
  return (
    createCluster(config, { maxRetriesPerRequest: null }) ?? {
      url: config.REDIS_URL,
      maxRetriesPerRequest: null,
      retryStrategy: reconnectSoon,
    }
  );
}

/**
 * Every key of the suite lives under the deployment's namespace, so deployments (and test workers) share a Redis
 * safely. On a cluster the namespace and the key's family (its first part: 'rv', 'vr', 'signin', ...) are its hash
 * tag, `{ns:family}:rest`: the keys one command, script or MULTI touches together are all of one family, so they
 * share a slot, and the families spread over the masters. One Redis keeps the plain `ns:family:rest`.
 */
export const keyspace =
  (namespace: string, cluster = false) =>
  (...parts: (string | number)[]) =>
    cluster ? [`{${namespace}:${parts[0]}}`, ...parts.slice(1)].join(':') : [namespace, ...parts].join(':');
export type Keyspace = ReturnType<typeof keyspace>;

/**
 * What the queues need of Redis in production (BullMQ's production guide): accepted jobs live in Redis, so
 * it must persist them (AOF, fsync every second: at most a second of writes lost in a crash) and must never
 * evict keys to make room (a job or a revocation would silently vanish). Returns what is not so.
 */
async function redisDurabilityFindings(redis: Redis): Promise<string[]> {
  const settings = await readSettings(redis);
  const findings: string[] = [];
  if (settings.appendonly !== 'yes')
    findings.push(
      `appendonly is ${settings.appendonly ?? 'unknown'} (want yes: without AOF a restart loses every queued job)`,
    );
  // Managed services that refuse CONFIG do not tell appendfsync: only a known bad value is reported.
  else if (settings.appendfsync && settings.appendfsync !== 'everysec' && settings.appendfsync !== 'always')
    findings.push(`appendfsync is ${settings.appendfsync} (want everysec)`);
  if (settings['maxmemory-policy'] !== 'noeviction')
    findings.push(
      `maxmemory-policy is ${settings['maxmemory-policy'] ?? 'unknown'} (want noeviction: evicted keys are lost jobs and revocations)`,
    );
  return findings;
}

/** CONFIG GET where allowed; managed services often refuse it, INFO still tells the AOF state and the eviction policy. */
async function readSettings(redis: Redis): Promise<Record<string, string | undefined>> {
  const settings: Record<string, string | undefined> = {};
  for (const name of ['appendonly', 'appendfsync', 'maxmemory-policy']) {
    const pair = (await redis.call('CONFIG', 'GET', name).catch(() => [])) as string[];
    if (pair.length === 2) settings[name] = pair[1];
  }
  if (!settings.appendonly || !settings['maxmemory-policy']) {
    const [info, memory] = await Promise.all([
      redis.info('persistence').catch(() => ''),
      redis.info('memory').catch(() => ''),
    ]);
    settings.appendonly ??= /aof_enabled:1/.test(info) ? 'yes' : /aof_enabled:0/.test(info) ? 'no' : undefined;
    settings['maxmemory-policy'] ??= /maxmemory_policy:(\S+)/.exec(memory)?.[1];
  }
  return settings;
}

/** Checked at start by every dyno: a warning in production, a note elsewhere (a development Redis needs no AOF). */
export async function checkRedisDurability(redis: RedisClient, logger: Logger, production: boolean): Promise<string[]> {
  // Redis down at start: checked once it answers (RedisWatch says when), rather than reported as unknown settings.
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  // A cluster: every master holds queued jobs of its slots, so each is asked.
  const servers = redis instanceof Cluster ? redis.nodes('master') : [redis];
  const findings = (
    await Promise.all(
      servers.map(async (server) => {
        const found = await redisDurabilityFindings(server).catch((err: Error) => [
          `could not be checked (${err.message})`,
        ]);
        const at = `${server.options.host ?? '127.0.0.1'}:${server.options.port ?? 6379}`;
        return redis instanceof Cluster ? found.map((f) => `${at}: ${f}`) : found;
      }),
    )
  ).flat();
  if (findings.length) {
    const message =
      'Redis is not configured for durable queues (production needs appendonly yes, appendfsync everysec, maxmemory-policy noeviction)';
    if (production) logger.warn({ findings }, message);
    else logger.info({ findings }, message);
  }
  return findings;
}

const standalone = new WeakSet<Redis>();

/**
 * The readiness probe of Redis: one Redis answers PING (and is no cluster node). A cluster is ready when it says so (CLUSTER INFO
 * cluster_state:ok: every slot served) and every master this client knows answers PING; otherwise it throws
 * what is wrong, which /ready reports.
 */
export async function pingRedis(redis: RedisClient): Promise<void> {
  if (!(redis instanceof Cluster)) {
    // A cluster node behind REDIS_URL answers PING but refuses most of the suite's commands (MOVED, CROSSSLOT):
    // not ready. Asked once per connection (INFO cluster), then PING alone.
    if (!standalone.has(redis)) {
      if (/cluster_enabled:1/.test(await redis.info('cluster')))
        throw new Error('REDIS_URL is a Redis Cluster node: set REDIS_CLUSTER_NODES');
      standalone.add(redis);
    }
    await redis.ping();
    return;
  }
  try {
    const info = String(await redis.call('CLUSTER', 'INFO'));
    const state = /cluster_state:(\w+)/.exec(info)?.[1] ?? 'unknown';
    if (state !== 'ok') throw new Error(`cluster_state:${state}`);
    const masters = redis.nodes('master');
    if (!masters.length) throw new Error('no cluster master known');
    await Promise.all(
      masters.map((m) =>
        m.ping().catch((err: Error) => {
          throw new Error(`master ${m.options.host}:${m.options.port}: ${err.message}`);
        }),
      ),
    );
  } catch (err) {
    // A failed master stays in the client's topology until its next slots refresh (ioredis: every 5 s, or on a
    // MOVED the probe may never get): ask for the topology now, so the probe after a failover sees the promoted replica.
    redis.refreshSlotsCache();
    throw err;
  }
}
