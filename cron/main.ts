import cron, { type ScheduledTask } from 'node-cron';
import { servicesFor, type Services } from '../domain/services';
import { runProcess } from '../lib/process';
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
      { name: s.name, timezone: 'UTC', noOverlap: true },
    ),
  );
  return {
    tasks,
    async stop() {
      await Promise.all(tasks.map((t) => t.stop()));
    },
  };
}

if (require.main === module) {
  void (async () => {
    await runProcess('clock', servicesFor('clock'), async (services) => {
      const clock = startClock(services);
      services.logger.info(`clock running ${clock.tasks.length} schedules`);
      return () => clock.stop();
    });
  })();
}
