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
    committer = new GroupCommit((jobs) => ingestTelemetry(services.orm.em.fork(), jobs), { maxInFlight: 2, maxWeight: 2500, weight: (job) => job.events.length, lingerMs: 10 });
    committers.set(services, committer);
  }
  return committer;
}

/**
 * Applies telemetry batches. The queue's concurrency lets many jobs be active at once; they are applied
 * in groups, one transaction per group (see GroupCommit), and each job completes once its batch is
 * committed. Idempotent: a batch key already applied adds nothing.
 */
export const telemetryProcessor = defineProcessor(telemetryQueue, {
  async perform(payload, { services }) {
    await committerOf(services).submit(payload);
  },
});
