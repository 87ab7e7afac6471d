import type { Em } from '../../../lib/db';
import type { TelemetryPartition } from '../telemetryPartitions';

/**
 * Statements of vr_telemetry_events' partitions. Creating and dropping go through the owner's SECURITY DEFINER
 * functions (migrations/Migration20261213090000_vr_telemetry_partitions.ts): the dynos' role has no DDL right.
 */

/** Every partition with its exclusive upper bound, read from the catalogue. */
export async function listPartitions(em: Em): Promise<TelemetryPartition[]> {
  const rows = await em.execute<{ name: string; until: Date }[]>(
    `select c.relname as name,
            (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz as until
       from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'vr_telemetry_events'::regclass order by 2`,
  );
  return rows.map((r) => ({ name: r.name, until: new Date(r.until) }));
}

/** Creates the partition of the month starting `monthStart` (YYYY-MM-01) unless it exists; answers its name. */
export async function createPartition(em: Em, monthStart: string): Promise<string> {
  const [row] = await em.execute<{ name: string }[]>(`select vr_telemetry_partition_create(?::date) as name`, [
    monthStart,
  ]);
  return row.name;
}

/** Drops a partition (and its rows) of vr_telemetry_events; the function refuses any other table. */
export async function dropPartition(em: Em, name: string): Promise<void> {
  await em.execute(`select vr_telemetry_partition_drop(?)`, [name]);
}
