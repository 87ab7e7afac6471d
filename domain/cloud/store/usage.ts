import { Organization } from '../../../entities/identity/organization';
import type { Em } from '../../../lib/db';
import type { UsageJob } from '../../../queues/cloud';

/** Statements of the quota's ledger: cloud_usage (one row per organisation) and cloud_usage_events (applied once). */

/**
 * The reservation as one statement (SQL; parameters from reserveParams): creates the usage row holding the
 * reservation, or adds it to the existing row only while used + reserved + size <= quota. PostgreSQL
 * serialises concurrent ones on the row and re-checks the condition on the row as the previous one left it,
 * so no two uploads can take the same last bytes. Returns a row when reserved.
 */
export const RESERVE_SQL = `insert into cloud_usage as u (tenant_id, used_bytes, reserved_bytes, by_type, updated_at)
  select ?::uuid, 0, ?::bigint, '{}', now() where ?::bigint <= ?::bigint
  on conflict (tenant_id) do update set reserved_bytes = u.reserved_bytes + excluded.reserved_bytes, updated_at = now()
  where u.used_bytes + u.reserved_bytes + excluded.reserved_bytes <= ?::bigint
  returning u.tenant_id`;
export const reserveParams = (tenantId: string, size: number, quota: number) => [tenantId, size, size, quota, quota];

/** by_type with `delta` added to one category, never below 0 (SQL; parameters: category, category, delta). */
const BY_TYPE_PLUS = `by_type || jsonb_build_object(?::text, greatest(0, coalesce((by_type->>?)::bigint, 0) + ?::bigint))`;

/** A confirmed upload: its reservation becomes stored bytes of its category (SQL, parameters from settleParams). */
export const SETTLE_SQL = `update cloud_usage set reserved_bytes = reserved_bytes - ?, used_bytes = used_bytes + ?, by_type = ${BY_TYPE_PLUS}, updated_at = now() where tenant_id = ?`;
export const settleParams = (tenantId: string, size: number, category: string) => [
  size,
  size,
  category,
  category,
  size,
  tenantId,
];

const ensureUsageRow = (em: Em, tenantId: string) =>
  em.execute(
    `insert into cloud_usage (tenant_id, used_bytes, reserved_bytes, by_type, updated_at) values (?, 0, 0, '{}', now()) on conflict (tenant_id) do nothing`,
    [tenantId],
  );

/** An abandoned or refused upload gives its reservation back (never below zero). */
export async function releaseReservation(em: Em, tenantId: string, size: number): Promise<void> {
  await em.execute(
    `update cloud_usage set reserved_bytes = greatest(0, reserved_bytes - ?), updated_at = now() where tenant_id = ?`,
    [size, tenantId],
  );
}

/** Stored bytes added (positive) or freed (negative) in a category, never below zero. */
export async function addUsage(em: Em, tenantId: string, delta: number, category: string): Promise<void> {
  await ensureUsageRow(em, tenantId);
  await em.execute(
    `update cloud_usage set used_bytes = greatest(0, used_bytes + ?), by_type = ${BY_TYPE_PLUS}, updated_at = now() where tenant_id = ?`,
    [delta, category, category, delta, tenantId],
  );
}

export interface UsageRow {
  usedBytes: number;
  reservedBytes: number;
  /** Stored bytes by category, as the row holds them (zeroes included). */
  byType: Record<string, number>;
}

/** The organisation's usage row; zeroes when it has none yet. */
export async function usageOf(em: Em, tenantId: string): Promise<UsageRow> {
  const [usage] = await em.execute<
    { used_bytes: string; reserved_bytes: string; by_type: Record<string, number | string> }[]
  >(`select used_bytes, reserved_bytes, by_type from cloud_usage where tenant_id = ?`, [tenantId]);
  return {
    usedBytes: Number(usage?.used_bytes ?? 0),
    reservedBytes: Number(usage?.reserved_bytes ?? 0),
    byType: Object.fromEntries(Object.entries(usage?.by_type ?? {}).map(([k, v]) => [k, Number(v)])),
  };
}

/** Records a reported usage event; false when its (tenant, event id) was recorded before. */
export async function recordUsageEvent(em: Em, event: UsageJob): Promise<boolean> {
  const inserted = await em.execute(
    `insert into cloud_usage_events (tenant_id, event_id, delta_bytes, category, source, created_at) values (?, ?, ?, ?, ?, now()) on conflict do nothing returning event_id`,
    [event.tenantId, event.eventId, event.deltaBytes, event.category, event.source],
  );
  return inserted.length > 0;
}

/** Whether the organisation exists. */
export async function organizationExists(em: Em, tenantId: string): Promise<boolean> {
  return !!(await em.findOne(Organization, { id: tenantId }, { fields: ['id'] }));
}
