import type { Em } from '../../lib/db';
import { conflict } from '../../lib/errors';
import type { Services } from '../services';
import type { TenantContext } from '../context';
import { notify } from '../notifications/notify';

/** The organisation's storage quota: billing's entitlement limit cloudQuotaBytes (0 without one: nothing fits). */
export async function quotaBytesOf(services: Services, tenantId: string): Promise<number> {
  const { limits } = await services.entitlements.get(tenantId);
  return Math.max(0, limits.cloudQuotaBytes ?? 0);
}

const ensureUsageRow = (em: Em, tenantId: string) =>
  em.execute(`insert into cloud_usage (tenant_id, used_bytes, reserved_bytes, by_type, updated_at) values (?, 0, 0, '{}', now()) on conflict (tenant_id) do nothing`, [tenantId]);

/**
 * The reservation as one statement (SQL; parameters: tenantId, size, size, quota, quota): creates the usage
 * row holding the reservation, or adds it to the existing row only while used + reserved + size <= quota.
 * PostgreSQL serialises concurrent ones on the row and re-checks the condition on the row as the previous
 * one left it, so no two uploads can take the same last bytes. Returns a row when reserved.
 */
export const RESERVE_SQL = `insert into cloud_usage as u (tenant_id, used_bytes, reserved_bytes, by_type, updated_at)
  select ?::uuid, 0, ?::bigint, '{}', now() where ?::bigint <= ?::bigint
  on conflict (tenant_id) do update set reserved_bytes = u.reserved_bytes + excluded.reserved_bytes, updated_at = now()
  where u.used_bytes + u.reserved_bytes + excluded.reserved_bytes <= ?::bigint
  returning u.tenant_id`;

/** by_type with `delta` added to one category, never below 0 (SQL; parameters: category, category, delta). */
const BY_TYPE_PLUS = `by_type || jsonb_build_object(?::text, greatest(0, coalesce((by_type->>?)::bigint, 0) + ?::bigint))`;

/** The problem of a refused reservation (409 `quota_exceeded`), after telling the hub. */
export async function quotaRefusal(ctx: TenantContext, size: number, quota: number): Promise<Error> {
  const [usage] = await ctx.em.execute<{ used_bytes: string; reserved_bytes: string }[]>(`select used_bytes, reserved_bytes from cloud_usage where tenant_id = ?`, [ctx.tenantId]);
  const used = Number(usage?.used_bytes ?? 0);
  const reserved = Number(usage?.reserved_bytes ?? 0);
  void notify(ctx.services, 'cloud', [{ event: 'quota.refused', tenantId: ctx.tenantId, subject: { userId: ctx.userId }, data: { requestedBytes: size, quotaBytes: quota, usedBytes: used, reservedBytes: reserved } }]);
  return conflict('quota_exceeded', `This upload needs ${size} bytes; ${Math.max(0, quota - used - reserved)} of the organisation's ${quota} remain (used ${used}, reserved by uploads in progress ${reserved})`);
}

/** A confirmed upload: its reservation becomes stored bytes of its category (SQL, parameters from settleParams). */
export const SETTLE_SQL = `update cloud_usage set reserved_bytes = reserved_bytes - ?, used_bytes = used_bytes + ?, by_type = ${BY_TYPE_PLUS}, updated_at = now() where tenant_id = ?`;
export const settleParams = (tenantId: string, size: number, category: string) => [size, size, category, category, size, tenantId];

/** An abandoned or refused upload gives its reservation back. */
export async function releaseReservation(em: Em, tenantId: string, size: number): Promise<void> {
  await em.execute(`update cloud_usage set reserved_bytes = greatest(0, reserved_bytes - ?), updated_at = now() where tenant_id = ?`, [size, tenantId]);
}

/** Stored bytes added (positive) or freed (negative) in a category, never below zero. */
export async function addUsage(em: Em, tenantId: string, delta: number, category: string): Promise<void> {
  await ensureUsageRow(em, tenantId);
  await em.execute(
    `update cloud_usage set used_bytes = greatest(0, used_bytes + ?), by_type = ${BY_TYPE_PLUS}, updated_at = now() where tenant_id = ?`,
    [delta, category, category, delta, tenantId],
  );
}

export interface QuotaReport {
  quotaBytes: number;
  usedBytes: number;
  reservedBytes: number;
  availableBytes: number;
  /** Stored bytes of files in the trash (counted in usedBytes until purged). */
  trashBytes: number;
  /** True when a lowered quota is below what is stored: uploads are refused until files are purged. */
  overQuota: boolean;
  byType: Record<string, number>;
}

export async function getQuota(ctx: TenantContext): Promise<QuotaReport> {
  const [quotaBytes, [usage], [trash]] = await Promise.all([
    quotaBytesOf(ctx.services, ctx.tenantId),
    ctx.em.execute<{ used_bytes: string; reserved_bytes: string; by_type: Record<string, number | string> }[]>(`select used_bytes, reserved_bytes, by_type from cloud_usage where tenant_id = ?`, [ctx.tenantId]),
    ctx.em.execute<{ bytes: string | null }[]>(`select sum(size) as bytes from cloud_nodes where tenant_id = ? and trashed_at is not null and kind = 'file'`, [ctx.tenantId]),
  ]);
  const usedBytes = Number(usage?.used_bytes ?? 0);
  const reservedBytes = Number(usage?.reserved_bytes ?? 0);
  const byType = Object.fromEntries(Object.entries(usage?.by_type ?? {}).map(([k, v]) => [k, Number(v)]).filter(([, v]) => (v as number) > 0));
  return { quotaBytes, usedBytes, reservedBytes, availableBytes: Math.max(0, quotaBytes - usedBytes - reservedBytes), trashBytes: Number(trash?.bytes ?? 0), overQuota: usedBytes > quotaBytes, byType };
}
