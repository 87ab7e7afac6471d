import type { TenantContext } from '../../context';
import { requestHealthRecompute } from './requestHealthRecompute';
import { findDeal } from './dealLookup';

/** Deletes a deal with its history; the customer's health score follows. */
export async function deleteDeal(ctx: TenantContext, id: string): Promise<void> {
  const deal = await findDeal(ctx.em, id);
  await ctx.em.remove(deal).flush();
  await requestHealthRecompute(ctx.services, ctx.tenantId, [deal.customerId]);
}
