import { startWeb } from '../api/server';
import { QUEUE_BOARD_PATH } from '../api/system/queueBoard';
import { startClock } from '../cron/main';
import { ensurePlatformAdmin } from '../domain/identity/bootstrapAdmin';
import { servicesFor } from '../domain/services';
import { migrate } from '../lib/db';
import { packageInfo } from '../lib/package';
import { redisWatch, redisWatchUrl } from '../lib/redis';
import { startWorkers } from '../workers/main';
import { runProcess } from '../lib/process';

/**
 * `npm start`: web, workers and clock in one process against local PostgreSQL and Redis. The database is
 * created and migrated when needed; ADMIN_EMAIL/ADMIN_PASSWORD create the first platform administrator.
 */
void runProcess('all-in-one', servicesFor('all-in-one'), async (services) => {
  const { config, logger } = services;
  console.log(
    `Starting Platform Suite ${packageInfo.version} (${config.NODE_ENV}): migrations, then web, workers and clock ...`,
  );
  const applied = await migrate(services.orm, config);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  await services.storage.ensureBucket();
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD)
    console.log(
      (
        await ensurePlatformAdmin(
          { em: services.orm.em.fork(), revocations: services.revocations },
          config.ADMIN_EMAIL,
          config.ADMIN_PASSWORD,
        )
      ).message,
    );
  const web = await startWeb(services);
  const pool = startWorkers(services);
  const clock = startClock(services);
  const base = config.PUBLIC_URL.replace(/\/$/, '');
  // Redis down: the server runs (requests that need it answer 503, jobs wait) and says so; RedisWatch tells its return.
  const redis = redisWatch(logger, redisWatchUrl(config));
  const state = redis.available ? 'is running' : `is running, waiting for redis at ${redis.address}`;
  console.log(
    [
      `Platform Suite ${state} (${config.NODE_ENV}, storage: ${config.storageDriver}, mail: ${config.SMTP_URL ? 'smtp' : 'outbox table'})`,
      `  API           ${base}`,
      `  Docs          ${base}/docs`,
      `  OpenAPI       ${base}/openapi.json`,
      `  AsyncAPI      ${base}/asyncapi.json`,
      `  Health        ${base}/health  ${base}/ready`,
      `  Queues        ${base}${QUEUE_BOARD_PATH}?token=<platform admin access token>`,
    ].join('\n'),
  );
  return async () => {
    await web.close();
    await clock.stop();
    await pool.close();
  };
});
