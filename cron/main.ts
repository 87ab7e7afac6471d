import cron, { type ScheduledTask } from 'node-cron';
import { servicesFor, type Services } from '../domain/services';
import { runProcess } from '../lib/process';
import { redisWatch, redisWatchUrl } from '../lib/redis';
import { schedules as allSchedules, type Schedule } from './schedules';

export interface Clock {
  tasks: ScheduledTask[];
  stop(): Promise<void>;
}

/** Starts every schedule in UTC. A failed enqueue is logged; the next tick tries again. */
export function startClock(services: Services, schedules: Schedule[] = allSchedules): Clock {
  const tasks = schedules.map((s) =>
    cron.schedule(
      s.cron,
      async ({ date }) => {
        const slot = `${s.name}.${date.toISOString().slice(0, 19).replace(/:/g, '-')}`;
        try {
          await s.enqueue(services, slot, date);
        } catch (err) {
          services.logger.error({ err, schedule: s.name }, 'schedule could not enqueue');
        }
      },
      { name: s.name, timezone: 'UTC', noOverlap: true, logger: cronLogger(services, s.name) },
    ),
  );
  return {
    tasks,
    async stop() {
      await Promise.all(tasks.map((t) => t.stop()));
    },
  };
}

/**
 * node-cron's own messages as the process's log lines. A tick skipped because the previous one still waits to
 * enqueue (Redis down: the producer waits for it) is expected then, and told once by RedisWatch: debug only.
 */
function cronLogger(services: Services, schedule: string) {
  const { logger } = services;
  return {
    info: (message: string) => logger.debug({ schedule }, message),
    debug: (message: string | Error) => logger.debug({ schedule }, String(message)),
    warn: (message: string) =>
      /overlap/.test(message) ? logger.debug({ schedule }, message) : logger.warn({ schedule }, message),
    error: (message: string | Error, err?: Error) => logger.error({ schedule, err: err ?? message }, String(message)),
  };
}

if (require.main === module) {
  void (async () => {
    await runProcess('clock', servicesFor('clock'), async (services) => {
      const clock = startClock(services);
      const redis = redisWatch(services.logger, redisWatchUrl(services.config));
      services.logger.info(
        `clock running ${clock.tasks.length} schedules${redis.available ? '' : `, waiting for redis at ${redis.address}`}`,
      );
      return () => clock.stop();
    });
  })();
}
