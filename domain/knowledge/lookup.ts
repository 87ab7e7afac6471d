import type { KnowledgeComment } from '../../entities/knowledge/article';
import { forbidden, notFound } from '../../lib/errors';
import type { LeanScope } from '../../lib/lean';
import type { TenantContext } from '../context';
import { findComment, statusOfArticle } from './store/articles';

/** Who made a change: a member (userId) or an integration key (apiKeyId). */
export interface Actor {
  userId: string | null;
  apiKeyId: string | null;
}

/**
 * 404 for an article a caller who may not see unpublished articles (`publishedOnly`, see api/knowledge/surface.ts)
 * asks about, unless it is published: its versions and comments are as hidden as it is.
 */
export function requireVisible(article: { status: string }, publishedOnly: boolean): void {
  if (publishedOnly && article.status !== 'published') throw notFound('Article');
}

/** 404 unless the article is the organisation's and visible to the caller (requireVisible). */
export async function checkArticle(scope: LeanScope, id: string, { publishedOnly = false } = {}): Promise<void> {
  const article = await statusOfArticle(scope, id);
  if (!article) throw notFound('Article');
  requireVisible(article, publishedOnly);
}

/**
 * Only its author edits or deletes a comment (403 `not_comment_author`). `publishedOnly`: the comment of an
 * article unpublished since is as hidden as the article (404).
 */
export async function ownComment(ctx: TenantContext, id: string, publishedOnly = false): Promise<KnowledgeComment> {
  const comment = await findComment(ctx.em, id);
  if (publishedOnly) await checkArticle(ctx, comment.articleId, { publishedOnly });
  if (comment.authorId !== ctx.userId)
    throw forbidden('not_comment_author', 'Only the author of a comment may change or delete it');
  return comment;
}
