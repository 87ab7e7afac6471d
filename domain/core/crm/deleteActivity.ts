import type { TenantContext } from '../../context';
import { refreshLastContact } from './store/customers';
import { requestHealthRecompute } from './requestHealthRecompute';
import { findActivity } from './activityLookup';

/** Deletes an activity; the customer's lastContactAt and health score follow. */
export async function deleteActivity(ctx: TenantContext, id: string): Promise<void> {
  const activity = await findActivity(ctx, id);
  await ctx.em.transactional(async (em) => {
    em.remove(activity);
    await em.flush();
    await refreshLastContact(em, ctx.tenantId, activity.customerId);
  });
  await requestHealthRecompute(ctx.services, ctx.tenantId, [activity.customerId]);
}
