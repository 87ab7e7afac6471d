import type { TenantContext } from '../context';
import { findWorkItem } from './store';

/** Deletes a work item of the organisation (404 for an unknown id). */
export async function deleteWorkItem(ctx: TenantContext, id: string): Promise<void> {
  const item = await findWorkItem(ctx.em, id);
  ctx.em.remove(item);
  await ctx.em.flush();
}
