import type { Processor } from './define';
import { broadcastProcessor } from './identity/broadcast';
import { mailProcessor } from './identity/mail';

/** Every processor of the suite; each queue of queues/index.ts has exactly one. */
export const allProcessors: readonly Processor<never>[] = [mailProcessor, broadcastProcessor] as Processor<never>[];
