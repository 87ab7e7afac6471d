import { KnowledgeComment } from '../../entities/knowledge/article';
import { forbidden, notFound } from '../../lib/errors';
import { lean, type Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { notifyKnowledge } from './events';
import { checkArticle, findArticle, requireVisible } from './lookup';

// A lean statement (docs/database-path.md) for the listing; comments are changed through the em below.
const commentsPage = lean(KnowledgeComment, { where: 'article_id = $1 and ($2::uuid is null or id > $2)', orderBy: 'id asc', limitParam: '$3' });

/** An article's comments, oldest first (`publishedOnly`: an unpublished article is a 404). */
export async function listComments(ctx: TenantContext, articleId: string, props: PageProps & { publishedOnly: boolean }): Promise<Page<Lean<KnowledgeComment>>> {
  const [, rows] = await Promise.all([checkArticle(ctx, articleId, props), commentsPage.all(ctx, articleId, props.cursor ?? null, props.limit + 1)]);
  return toPage(rows, props.limit);
}

/** A comment of the calling member on an article (`publishedOnly`: on a published one, else 404). */
export async function addComment(ctx: TenantContext, articleId: string, body: string, { publishedOnly }: { publishedOnly: boolean }): Promise<KnowledgeComment> {
  const comment = await ctx.em.transactional(async (em) => {
    const article = await findArticle(em, articleId);
    requireVisible(article, publishedOnly);
    return { comment: em.create(KnowledgeComment, { tenantId: ctx.tenantId, articleId: article.id, authorId: ctx.userId!, body: body.trim(), editedAt: null }), spaceId: article.spaceId };
  });
  await notifyKnowledge(ctx.services, ctx.tenantId, 'comment.created', { spaceId: comment.spaceId, articleId }, { commentId: comment.comment.id });
  return comment.comment;
}

/**
 * Only its author edits or deletes a comment (403 `not_comment_author`). `publishedOnly`: the comment of an
 * article unpublished since is as hidden as the article (404).
 */
async function ownComment(ctx: TenantContext, id: string, publishedOnly = false): Promise<KnowledgeComment> {
  const comment = await ctx.em.findOne(KnowledgeComment, { id });
  if (!comment) throw notFound('Comment');
  if (publishedOnly) await checkArticle(ctx, comment.articleId, { publishedOnly });
  if (comment.authorId !== ctx.userId) throw forbidden('not_comment_author', 'Only the author of a comment may change or delete it');
  return comment;
}

export async function editComment(ctx: TenantContext, id: string, body: string, { publishedOnly }: { publishedOnly: boolean }): Promise<KnowledgeComment> {
  const comment = await ownComment(ctx, id, publishedOnly);
  comment.body = body.trim();
  comment.editedAt = new Date();
  await ctx.em.flush();
  return comment;
}

export async function deleteComment(ctx: TenantContext, id: string): Promise<void> {
  const comment = await ownComment(ctx, id);
  await ctx.em.remove(comment).flush();
}
