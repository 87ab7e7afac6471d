import type { Services } from '../services';
import { createPartition, dropPartition, listPartitions } from './store/partitions';
import { planPartitions } from './telemetryPartitions';

/**
 * The clock's daily pass over vr_telemetry_events: the months ahead created before a row can need them, the months
 * past VR_TELEMETRY_RETENTION_MONTHS dropped (a DROP of a partition frees its space at once, where a DELETE would
 * leave dead rows to vacuum). Idempotent: a second pass finds nothing to do.
 */
export async function maintainPartitions(
  services: Services,
  now = new Date(),
): Promise<{ created: string[]; dropped: string[] }> {
  const em = services.orm.em.fork();
  const plan = planPartitions(now, await listPartitions(em), {
    ahead: services.config.VR_TELEMETRY_PARTITIONS_AHEAD,
    retentionMonths: services.config.VR_TELEMETRY_RETENTION_MONTHS,
  });
  const created: string[] = [];
  for (const month of plan.create) created.push(await createPartition(em, month));
  for (const name of plan.drop) await dropPartition(em, name);
  return { created, dropped: plan.drop };
}
