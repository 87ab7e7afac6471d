import type { Services } from '../domain/services';

/**
 * A clock schedule only enqueues. The job id names the time slot (BullMQ ids may not contain ":"), so two clock processes (or a restart
 * inside the same minute) enqueue a slot once.
 */
export interface Schedule {
  name: string;
  /** node-cron expression (seconds field optional). */
  cron: string;
  enqueue(services: Services, slot: string): Promise<unknown>;
}

/** Every schedule of the suite. */
export const schedules: Schedule[] = [];
