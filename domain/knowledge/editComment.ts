import type { KnowledgeComment } from '../../entities/knowledge/article';
import type { TenantContext } from '../context';
import { ownComment } from './lookup';

/** Its author edits a comment (ownComment: 403 for anyone else). */
export async function editComment(
  ctx: TenantContext,
  id: string,
  body: string,
  { publishedOnly }: { publishedOnly: boolean },
): Promise<KnowledgeComment> {
  const comment = await ownComment(ctx, id, publishedOnly);
  comment.body = body.trim();
  comment.editedAt = new Date();
  await ctx.em.flush();
  return comment;
}
