import { KnowledgeArticleVersion, type KnowledgeArticle } from '../../entities/knowledge/article';
import type { Em } from '../../lib/db';
import { contentHtml, contentText } from './content';
import type { Actor } from './lookup';

/**
 * Records the article's current title and content as its next version (the article's `version` moves on) and
 * refreshes the text the search index is generated from and the stored public HTML. Called in the transaction that changed them.
 */
export function writeVersion(
  em: Em,
  article: KnowledgeArticle,
  actor: Actor,
  reason: 'created' | 'edited' | 'restored',
  restoredFrom: number | null = null,
): KnowledgeArticleVersion {
  const { text, excerpt } = contentText(article.kind, article.content ?? null, article.contentMarkdown ?? null);
  article.bodyText = text;
  article.excerpt = excerpt;
  article.contentHtml = contentHtml(article.kind, article.content ?? null, article.contentMarkdown ?? null);
  if (reason !== 'created') article.version += 1;
  article.updatedBy = actor.userId;
  return em.create(KnowledgeArticleVersion, {
    tenantId: article.tenantId,
    articleId: article.id,
    number: article.version,
    title: article.title,
    content: article.content ?? null,
    contentMarkdown: article.contentMarkdown ?? null,
    reason,
    restoredFrom,
    authorId: actor.userId,
    apiKeyId: actor.apiKeyId,
  });
}
