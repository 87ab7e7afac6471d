import type { Services } from '../../domain/services';
import { ingestTelemetry } from '../../domain/vr/ingestTelemetry';
import { telemetryQueue, type TelemetryJob } from '../../queues/vr';
import { defineProcessor } from '../define';
import { GroupCommit } from './groupCommit';

/** One group committer per process (per Services, as tests run several app instances in one process). */
const committers = new WeakMap<Services, GroupCommit<TelemetryJob>>();

function committerOf(services: Services): GroupCommit<TelemetryJob> {
  let committer = committers.get(services);
  if (!committer) {
    const apply = async (jobs: TelemetryJob[]) => {
      const result = await ingestTelemetry(services.orm.em.fork(), jobs, services.logger);
      if (result.dropped) services.metrics.telemetryEventsDropped.inc(result.dropped);
      return result;
    };
    committer = new GroupCommit(apply, {
      maxInFlight: 2,
      maxWeight: 2500,
      weight: (job) => job.events.length,
      lingerMs: 10,
    });
    committers.set(services, committer);
  }
  return committer;
}

/**
 * Applies telemetry batches. The queue's concurrency lets many jobs be active at once; they are applied
 * in groups, one transaction per group (see GroupCommit), and each job completes once its batch is
 * committed. Idempotent: a batch key already applied adds nothing. Events naming a member who took no part in
 * the session are dropped (ingestTelemetry): logged (warn) and counted (vr_telemetry_events_dropped_total).
 */
export const telemetryProcessor = defineProcessor(telemetryQueue, {
  async perform(payload, { services }) {
    await committerOf(services).submit(payload);
  },
});
