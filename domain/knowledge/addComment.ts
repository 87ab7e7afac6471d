import { KnowledgeComment } from '../../entities/knowledge/article';
import type { TenantContext } from '../context';
import { notifyKnowledge } from './events';
import { requireVisible } from './lookup';
import { findArticle } from './store/articles';

/** A comment of the calling member on an article (`publishedOnly`: on a published one, else 404). */
export async function addComment(
  ctx: TenantContext,
  articleId: string,
  body: string,
  { publishedOnly }: { publishedOnly: boolean },
): Promise<KnowledgeComment> {
  const comment = await ctx.em.transactional(async (em) => {
    const article = await findArticle(em, articleId);
    requireVisible(article, publishedOnly);
    return {
      comment: em.create(KnowledgeComment, {
        tenantId: ctx.tenantId,
        articleId: article.id,
        authorId: ctx.userId!,
        body: body.trim(),
        editedAt: null,
      }),
      spaceId: article.spaceId,
    };
  });
  await notifyKnowledge(
    ctx.services,
    ctx.tenantId,
    'comment.created',
    { spaceId: comment.spaceId, articleId },
    { commentId: comment.comment.id },
  );
  return comment.comment;
}
