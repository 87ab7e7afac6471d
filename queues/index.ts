import { stripeEventsQueue, trialExpiryQueue } from './billing';
import type { QueueDefinition } from './define';
import { broadcastQueue, mailQueue } from './identity';
import { hubNotificationsQueue, presenceSweepQueue, telemetryQueue } from './vr';

/** Every queue of the suite. workers/main.ts refuses to start unless each has exactly one processor. */
export const allQueues: readonly QueueDefinition<never>[] = [mailQueue, broadcastQueue, stripeEventsQueue, trialExpiryQueue, telemetryQueue, hubNotificationsQueue, presenceSweepQueue] as QueueDefinition<never>[];
