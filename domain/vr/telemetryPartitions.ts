/**
 * Which monthly partitions of vr_telemetry_events to create and which to drop (the clock's daily pass,
 * workers/vr/partitions.ts). Months are UTC. A partition is dropped once every row it can hold is older than the
 * retention: its upper bound is at or before the first day of the month `retentionMonths` before this one. The first
 * partition (the table as it was before partitioning, from MINVALUE) goes by the same rule. 0 keeps everything.
 */
export interface TelemetryPartition {
  name: string;
  /** Exclusive upper bound. */
  until: Date;
}

export interface PartitionPlan {
  /** First days of the months to create (YYYY-MM-DD), oldest first. */
  create: string[];
  /** Partitions to drop, oldest first. */
  drop: string[];
}

/** The name vr_telemetry_partition_create gives a month's partition. */
export const partitionName = (monthStart: string): string =>
  `vr_telemetry_events_y${monthStart.slice(0, 4)}m${monthStart.slice(5, 7)}`;

const monthStart = (now: Date, offset: number): Date =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));

export function planPartitions(
  now: Date,
  existing: TelemetryPartition[],
  options: { ahead: number; retentionMonths: number },
): PartitionPlan {
  // Months up to `ahead` after this one that no partition covers yet (the newest bound covers what is before it).
  const covered = Math.max(0, ...existing.map((p) => p.until.getTime()));
  const create: string[] = [];
  for (let offset = 0; offset <= options.ahead; offset++) {
    const start = monthStart(now, offset);
    if (start.getTime() >= covered) create.push(start.toISOString().slice(0, 10));
  }
  const cutoff = monthStart(now, -options.retentionMonths).getTime();
  const drop =
    options.retentionMonths > 0
      ? [...existing]
          .filter((p) => p.until.getTime() <= cutoff)
          .sort((a, b) => a.until.getTime() - b.until.getTime())
          .map((p) => p.name)
      : [];
  return { create, drop };
}
