import { maintainPartitions } from '../../domain/vr/maintainPartitions';
import { telemetryPartitionsQueue } from '../../queues/vr';
import { defineProcessor } from '../define';

/** Creates the telemetry months ahead and drops those past the retention (the clock enqueues it daily). */
export const telemetryPartitionsProcessor = defineProcessor(telemetryPartitionsQueue, {
  perform: (_payload, { services }) => maintainPartitions(services),
});
