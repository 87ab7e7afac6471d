import type { Services } from '../domain/services';
import { trialExpiryQueue } from '../queues/billing';
import { presenceSweepQueue } from '../queues/vr';

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
export const schedules: Schedule[] = [
  { name: 'trial-expiry', cron: '* * * * *', enqueue: (services, slot) => services.queues.add(trialExpiryQueue, { slot }, { jobId: slot }) },
  // Presence expires PRESENCE_TTL_SECONDS after the last heartbeat; departures are recorded within 5 s of that.
  { name: 'vr-presence-sweep', cron: '*/5 * * * * *', enqueue: (services, slot) => services.queues.add(presenceSweepQueue, {}, { jobId: slot }) },
];
