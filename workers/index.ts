import { stripeEventsProcessor } from './billing/stripeEvents';
import { trialExpiryProcessor } from './billing/trialExpiry';
import type { Processor } from './define';
import { broadcastProcessor } from './identity/broadcast';
import { mailProcessor } from './identity/mail';
import { hubNotificationsProcessor } from './vr/hubNotifications';
import { presenceSweepProcessor } from './vr/presenceSweep';
import { telemetryProcessor } from './vr/telemetry';

/** Every processor of the suite; each queue of queues/index.ts has exactly one. */
export const allProcessors: readonly Processor<never>[] = [mailProcessor, broadcastProcessor, stripeEventsProcessor, trialExpiryProcessor, telemetryProcessor, hubNotificationsProcessor, presenceSweepProcessor] as Processor<never>[];
