import type { KnowledgeArticle } from '../../entities/knowledge/article';
import type { KnowledgeSpace } from '../../entities/knowledge/space';
import { notFound } from '../../lib/errors';
import type { Lean } from '../../lib/lean';
import type { Services } from '../services';
import { contentHtml } from './content';
import { readPublicSpace } from './publicSpace';
import { publishedArticleBySlug, storeArticleHtml } from './store/articles';

export interface PublicArticle {
  space: Lean<KnowledgeSpace>;
  article: Lean<KnowledgeArticle>;
  /** The content rendered as sanitised HTML. */
  html: string;
}

/**
 * A published article of a public space by the two slugs (404 for an internal or unknown space, a draft, a
 * review, an archived or unknown article). The space comes by slug (readPublicSpace, across tenants by design);
 * the article is bound to the space's own tenant. The HTML is the one stored with the article's version; a row
 * written before that column existed is rendered once here and stored (best effort, only while the version is
 * the same).
 */
export async function getPublicArticle(
  services: Services,
  spaceSlug: string,
  articleSlug: string,
): Promise<PublicArticle> {
  const space = await readPublicSpace(services, spaceSlug);
  const article = await publishedArticleBySlug(services, space, articleSlug);
  if (!article) throw notFound('Article');
  if (typeof article.contentHtml === 'string') return { space, article, html: article.contentHtml };
  const html = contentHtml(article.kind, article.content ?? null, article.contentMarkdown ?? null);
  storeArticleHtml(services, { id: article.id, tenantId: space.tenantId, version: article.version }, html).catch(
    (err: Error) => services.logger.debug({ err: err.message }, 'knowledge article html not stored'),
  );
  return { space, article, html };
}
