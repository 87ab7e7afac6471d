import type { TenantContext } from '../../context';
import { deleteDashboardRow, makeOldestDefault } from './store';
import { ownDashboard, lockMember } from './dashboards';

/**
 * Deletes a dashboard with its widgets (cascade). Deleting the default makes the first remaining dashboard in
 * list order (the oldest) the default, so the list keeps its order and the member keeps one default. Under the
 * member's lock: a concurrent delete or default change either happened before (and is seen) or waits.
 */
export async function deleteDashboard(ctx: TenantContext, id: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const tx = { ...ctx, em };
    await lockMember(tx);
    const d = await ownDashboard(tx, id);
    await deleteDashboardRow(em, ctx.userId!, d.id);
    if (d.isDefault) await makeOldestDefault(em, ctx.userId!, d.id);
  });
}
