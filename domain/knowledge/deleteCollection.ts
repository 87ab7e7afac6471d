import type { TenantContext } from '../context';
import { detachFromCollection } from './store/articles';
import { bumpSearchVersion } from './store/searchCache';
import { findCollection } from './store/spaces';

/** Deletes a collection; its articles stay in the space, outside any collection. */
export async function deleteCollection(ctx: TenantContext, id: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const collection = await findCollection(em, id);
    await detachFromCollection(em, collection.id);
    em.remove(collection);
  });
  await bumpSearchVersion(ctx.services, ctx.tenantId);
}
