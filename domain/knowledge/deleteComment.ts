import type { TenantContext } from '../context';
import { ownComment } from './lookup';

/** Its author deletes a comment (ownComment: 403 for anyone else). */
export async function deleteComment(ctx: TenantContext, id: string): Promise<void> {
  const comment = await ownComment(ctx, id);
  await ctx.em.remove(comment).flush();
}
