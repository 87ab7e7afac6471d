import type { QueueDefinition } from './define';
import { broadcastQueue, mailQueue } from './identity';

/** Every queue of the suite. workers/main.ts refuses to start unless each has exactly one processor. */
export const allQueues: readonly QueueDefinition<never>[] = [mailQueue, broadcastQueue] as QueueDefinition<never>[];
