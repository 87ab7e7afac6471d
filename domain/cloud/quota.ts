import { conflict } from '../../lib/errors';
import type { Services } from '../services';
import type { TenantContext } from '../context';
import { notify } from '../notifications/notify';
import { usageOf, type UsageRow } from './store/usage';

/** The organisation's storage quota: billing's entitlement limit cloudQuotaBytes (0 without one: nothing fits). */
export async function quotaBytesOf(services: Services, tenantId: string): Promise<number> {
  const { limits } = await services.entitlements.get(tenantId);
  return Math.max(0, limits.cloudQuotaBytes ?? 0);
}

/** Bytes still free under the quota: what neither stored files nor uploads in progress take (never below 0). */
export const availableBytes = (quota: number, used: number, reserved: number) => Math.max(0, quota - used - reserved);

/** 409 `quota_exceeded`: an upload of `size` bytes does not fit beside what is used and reserved. */
export function quotaExceeded(size: number, quota: number, used: number, reserved: number): Error {
  return conflict(
    'quota_exceeded',
    `This upload needs ${size} bytes; ${availableBytes(quota, used, reserved)} of the organisation's ${quota} remain (used ${used}, reserved by uploads in progress ${reserved})`,
  );
}

/** The problem of a refused reservation (409 `quota_exceeded`), after telling the hub. */
export async function quotaRefusal(ctx: TenantContext, size: number, quota: number): Promise<Error> {
  const { usedBytes: used, reservedBytes: reserved } = await usageOf(ctx.em, ctx.tenantId);
  void notify(ctx.services, 'cloud', [
    {
      event: 'quota.refused',
      tenantId: ctx.tenantId,
      subject: { userId: ctx.userId },
      data: { requestedBytes: size, quotaBytes: quota, usedBytes: used, reservedBytes: reserved },
    },
  ]);
  return quotaExceeded(size, quota, used, reserved);
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

/** The quota as members see it: categories holding nothing are left out. */
export function quotaReport(quotaBytes: number, usage: UsageRow, trashBytes: number): QuotaReport {
  const { usedBytes, reservedBytes } = usage;
  const byType = Object.fromEntries(Object.entries(usage.byType).filter(([, v]) => v > 0));
  return {
    quotaBytes,
    usedBytes,
    reservedBytes,
    availableBytes: availableBytes(quotaBytes, usedBytes, reservedBytes),
    trashBytes,
    overQuota: usedBytes > quotaBytes,
    byType,
  };
}
