import type { TenantContext } from '../context';
import { notifyKnowledge } from './events';
import { bumpSearchVersion } from './store/searchCache';
import { deleteSpaceContents, findSpace } from './store/spaces';

/** Deletes a space and everything in it (collections, articles, their versions and comments, subscribers, statistics), in one transaction. */
export async function deleteSpace(ctx: TenantContext, id: string): Promise<void> {
  const space = await ctx.em.transactional(async (em) => {
    const space = await findSpace(em, id);
    await deleteSpaceContents(em, space.id);
    em.remove(space);
    return space;
  });
  await bumpSearchVersion(ctx.services, ctx.tenantId);
  await notifyKnowledge(
    ctx.services,
    ctx.tenantId,
    'space.deleted',
    { spaceId: space.id },
    { name: space.name, slug: space.slug, mode: space.mode },
  );
}
