import { hkdfSync } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type Stripe from 'stripe';
import { createAi, type AiClient } from '../lib/ai';
import type { Config } from '../lib/config';
import { createOrm, dbBounds, type DbUse, type Orm } from '../lib/db';
import { EntitlementCache } from '../lib/entitlementCache';
import { createLogger, type Logger } from '../lib/logger';
import { createMailTransport } from '../lib/mail';
import { createMetrics, type Metrics } from '../lib/metrics';
import { onFirstUse } from '../lib/lazy';
import { createPayments } from '../lib/payments';
import {
  checkRedisDurability,
  closeRedis,
  createRedis,
  createSubscriber,
  isCluster,
  keyspace,
  logConnectionErrors,
  whenReady,
  type Keyspace,
  type RedisClient,
} from '../lib/redis';
import { RevocationStore } from '../lib/revocation';
import { createStorage, type ObjectStorage } from '../lib/storage';
import { TokenService } from '../lib/tokens';
import { Queues } from '../queues/queues';
import { ApiKeyResolver } from './apikeys/resolveApiKey';
import { loadEntitlements } from './billing/entitlements';
import { PermissionResolver } from './identity/permissions';
import { warnSkippedNotifications } from './notifications/notify';

/**
 * Everything a web, worker or clock process shares, built once per process from its configuration.
 * Nothing here holds state another dyno needs: PostgreSQL and Redis do.
 */
export interface Services {
  config: Config;
  logger: Logger;
  orm: Orm;
  /** One Redis, or a Redis Cluster client (REDIS_CLUSTER_NODES; lib/redis.ts). */
  redis: RedisClient;
  /** Dedicated connection for pub/sub subscriptions. */
  subscriber: RedisClient;
  key: Keyspace;
  queues: Queues;
  storage: ObjectStorage;
  tokens: TokenService;
  revocations: RevocationStore;
  entitlements: EntitlementCache;
  permissions: PermissionResolver;
  /** Resolves X-Server-API-Key values (knowledge and core integration surfaces). */
  apiKeys: ApiKeyResolver;
  mailer: Transporter | null;
  /** Stripe; null without STRIPE_SECRET_KEY (payment routes answer 503). */
  payments: Stripe | null;
  /** The AI layer (lib/ai.ts); null without OPENAI_API_KEY (the VR assistant is then disabled). */
  ai: AiClient | null;
  metrics: Metrics;
  /** Derives a purpose-bound secret from JWT_SECRET (HKDF), e.g. for signing storage addresses. */
  deriveSecret(purpose: string): string;
  /** Runs `write` when the services close, before Redis and the database do (in-memory buffers written out). */
  beforeClose(write: () => Promise<void>): void;
  close(): Promise<void>;
}

/**
 * `db`: what the process's PostgreSQL pool serves (lib/db.ts): the request path's bounds (the default: web,
 * `npm start`, tests) or the longer ones of jobs (worker and clock dynos).
 */
export async function createServices(
  config: Config,
  logger: Logger = createLogger(config),
  options: { db?: DbUse } = {},
): Promise<Services> {
  const orm = await createOrm(config, dbBounds(config, options.db ?? 'requests'));
  const redis = createRedis(config);
  const subscriber = createSubscriber(config);
  const key = keyspace(config.REDIS_NAMESPACE, isCluster(config));
  // Derived once per purpose: HKDF costs ~0.1 ms, and hot paths (each webhook attempt, each signed address) ask.
  const derived = new Map<string, string>();
  const deriveSecret = (purpose: string) => {
    let secret = derived.get(purpose);
    if (secret === undefined) {
      secret = Buffer.from(hkdfSync('sha256', config.JWT_SECRET, 'platform-suite', purpose, 32)).toString('hex');
      derived.set(purpose, secret);
    }
    return secret;
  };
  logConnectionErrors(redis, logger, 'commands');
  logConnectionErrors(subscriber, logger, 'pub/sub');

  const entitlements = new EntitlementCache({
    redis,
    subscriber,
    key,
    logger,
    ttlSeconds: config.ENTITLEMENT_CACHE_TTL_SECONDS,
    loader: (tenantId) => loadEntitlements(orm.em.fork(), tenantId),
  });
  void entitlements.listen();
  const permissions = new PermissionResolver(orm, redis, key);
  void permissions.listen(subscriber, logger);
  const revocations = new RevocationStore({
    orm,
    redis,
    key,
    logger,
    accessTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
  });
  void revocations.listen(subscriber);
  const apiKeys = new ApiKeyResolver({ orm, redis, key, logger });
  void apiKeys.listen(subscriber);
  warnSkippedNotifications(config, logger);

  // Producers fail fast when Redis is down (a request answers 503 instead of hanging); workers use their own connections.
  // Commands are refused until a connection is ready: start once it is (or go on, answering 503, if Redis is down).
  // Not ready: lib/redis.ts's RedisWatch has told it (one line per state change), so nothing more is logged here.
  await whenReady(redis, 3000);
  const producer = createRedis(config, { enableAutoPipelining: false });
  logConnectionErrors(producer, logger, 'queue producer');
  const queues = new Queues(producer, `${config.REDIS_NAMESPACE}:bull`, config.JOB_RETRY_DELAY_MS, (err) =>
    logger.debug({ err: err.message }, 'queue error'),
  );

  // Built by the first payment call: dynos that never bill do not load the Stripe SDK (lib/lazy.ts).
  const payments = onFirstUse(() => createPayments(config));
  const closing: (() => Promise<void>)[] = [];
  const services: Services = {
    config,
    logger,
    orm,
    redis,
    subscriber,
    key,
    queues,
    storage: createStorage(config, deriveSecret('storage-signing')),
    tokens: new TokenService(config.JWT_SECRET, config.ACCESS_TOKEN_TTL_SECONDS),
    revocations,
    entitlements,
    permissions,
    apiKeys,
    mailer: createMailTransport(config),
    get payments() {
      return payments();
    },
    ai: createAi(config),
    metrics: createMetrics(),
    deriveSecret,
    beforeClose: (write) => void closing.push(write),
    async close() {
      await Promise.all(closing.map((write) => write()));
      await queues.close();
      services.mailer?.close();
      await Promise.all([closeRedis(redis), closeRedis(subscriber)]);
      await orm.close(true);
    },
  };
  return services;
}

/**
 * What a dyno named `name` opens (lib/process.ts): the shared services with the pool bounds of its work (worker and
 * clock run jobs, whose statements may run longer than the request path allows), and a check that Redis keeps
 * queued jobs durably.
 */
export function servicesFor(name: string) {
  return async (config: Config, logger: Logger): Promise<Services> => {
    const services = await createServices(config, logger, {
      db: name === 'worker' || name === 'clock' ? 'jobs' : 'requests',
    });
    void checkRedisDurability(services.redis, logger, config.production);
    return services;
  };
}
