import type { TenantContext } from '../../context';
import { findGroup } from './store/catalogue';

/** Deleting a group keeps its services, ungrouped. */
export async function deleteGroup(ctx: TenantContext, id: string): Promise<void> {
  await ctx.em.removeAndFlush(await findGroup(ctx.em, id));
}
