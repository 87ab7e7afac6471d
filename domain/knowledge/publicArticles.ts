import { KnowledgeArticle } from '../../entities/knowledge/article';
import { KnowledgeSpace } from '../../entities/knowledge/space';
import type { Em } from '../../lib/db';
import { lean, type Lean } from '../../lib/lean';
import type { Services } from '../services';
import { notFound } from '../../lib/errors';
import { toPage, type Page } from '../../lib/pagination';
import { contentHtml } from './content';

/** Published articles of a public space in reading order (offset pages: `page` from 1). */
export async function listPublicArticles(em: Em, space: KnowledgeSpace, props: { limit: number; page: number }): Promise<Page<KnowledgeArticle>> {
  const rows = await em.find(
    KnowledgeArticle,
    { spaceId: space.id, status: 'published' },
    { filters: false, orderBy: space.mode === 'blog' ? [{ publishedAt: 'desc' }, { id: 'desc' }] : [{ sortOrder: 'asc' }, { id: 'asc' }], limit: props.limit + 1, offset: (props.page - 1) * props.limit },
  );
  return toPage(rows, props.limit);
}

// Lean statements (docs/database-path.md): the public article read is the hottest anonymous route.
// A space by slug in any organisation: public slugs are unique across the service, the surface crosses tenants by design.
const publicSpaceBySlug = lean(KnowledgeSpace, { crossTenant: true, where: `slug = $1 and mode in ('public_kb', 'blog')` });
// The article, bound to the space's own tenant; its stored HTML comes along (a lazy property, so an extra column).
const publishedBySlug = lean(KnowledgeArticle, { where: `space_id = $1 and slug = $2 and status = 'published'`, extra: { contentHtml: 'content_html' } });

export interface PublicArticle {
  space: Lean<KnowledgeSpace>;
  article: Lean<KnowledgeArticle>;
  /** The content rendered as sanitised HTML. */
  html: string;
}

/**
 * A published article of a public space by the two slugs (404 for an internal or unknown space, a draft, a
 * review, an archived or unknown article). The HTML is the one stored with the article's version; a row written
 * before that column existed is rendered once here and stored (best effort, only while the version is the same).
 */
export async function getPublicArticle(services: Services, spaceSlug: string, articleSlug: string): Promise<PublicArticle> {
  const space = await publicSpaceBySlug.one({ services, tenantId: '' }, spaceSlug);
  if (!space) throw notFound('Space');
  const article = await publishedBySlug.one({ services, tenantId: space.tenantId }, space.id, articleSlug);
  if (!article) throw notFound('Article');
  if (typeof article.contentHtml === 'string') return { space, article, html: article.contentHtml };
  const html = contentHtml(article.kind, article.content ?? null, article.contentMarkdown ?? null);
  services.orm.em
    .fork()
    .nativeUpdate(KnowledgeArticle, { id: article.id, tenantId: space.tenantId, version: article.version, contentHtml: null }, { contentHtml: html }, { filters: false })
    .catch((err: Error) => services.logger.debug({ err: err.message }, 'knowledge article html not stored'));
  return { space, article, html };
}
