import type { TenantContext } from '../context';
import { quotaBytesOf, quotaReport, type QuotaReport } from './quota';
import { trashBytes } from './store/nodes';
import { usageOf } from './store/usage';

/** The organisation's quota, what it stores (trash included) and reserves, by type. */
export async function getQuota(ctx: TenantContext): Promise<QuotaReport> {
  const [quotaBytes, usage, trash] = await Promise.all([
    quotaBytesOf(ctx.services, ctx.tenantId),
    usageOf(ctx.em, ctx.tenantId),
    trashBytes(ctx.em, ctx.tenantId),
  ]);
  return quotaReport(quotaBytes, usage, trash);
}
