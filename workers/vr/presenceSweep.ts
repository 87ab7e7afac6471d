import { sweepPresence } from '../../domain/vr/sweepPresence';
import { presenceSweepQueue } from '../../queues/vr';
import { defineProcessor } from '../define';

/** Records the departures of expired presence (the clock enqueues it every few seconds). */
export const presenceSweepProcessor = defineProcessor(presenceSweepQueue, {
  perform: (_payload, { services }) => sweepPresence(services),
});
