import { sweepCloud } from '../../domain/cloud/sweepCloud';
import { cloudSweepQueue } from '../../queues/cloud';
import { defineProcessor } from '../define';

/** Releases stale upload reservations (deleting their objects) and purges the trash past retention. */
export const cloudSweepProcessor = defineProcessor(cloudSweepQueue, {
  perform: (_payload, { services }) => sweepCloud(services),
});
