import { KnowledgeArticle } from '../../entities/knowledge/article';
import type { KnowledgeSpace } from '../../entities/knowledge/space';
import { lean, preparedRead, rawDate, type Lean } from '../../lib/lean';
import type { Services } from '../services';
import { notFound } from '../../lib/errors';
import { toPage, type Page } from '../../lib/pagination';
import { contentHtml } from './content';
import { readPublicSpace } from './publicSpace';

/** What a public article list shows (KbPublicArticleSummaryView), and the id of its page. */
export type PublicArticleSummary = Pick<Lean<KnowledgeArticle>, 'id' | 'slug' | 'title' | 'kind' | 'excerpt' | 'publishedAt' | 'updatedAt'>;
interface PublicArticleRow {
  id: string;
  slug: string;
  title: string;
  kind: KnowledgeArticle['kind'];
  excerpt: string;
  publishedAt: unknown;
  updatedAt: unknown;
}

// Prepared reads (docs/database-path.md): offset pages are beyond lean(). Bound to the space's own tenant ($1),
// the columns the list shows; knowledge bases in reading order, blogs newest first.
const PUBLIC_LIST = `select id, slug, title, kind, excerpt, published_at as "publishedAt", updated_at as "updatedAt" from knowledge_articles where tenant_id = $1 and space_id = $2 and status = 'published'`;
const publishedInReadingOrder = preparedRead<PublicArticleRow>(`${PUBLIC_LIST} order by sort_order asc, id asc limit $3 offset $4`);
const publishedNewestFirst = preparedRead<PublicArticleRow>(`${PUBLIC_LIST} order by published_at desc, id desc limit $3 offset $4`);

/** Published articles of a public space in reading order (offset pages: `page` from 1). */
export async function listPublicArticles(services: Services, space: Pick<Lean<KnowledgeSpace>, 'id' | 'tenantId' | 'mode'>, props: { limit: number; page: number }): Promise<Page<PublicArticleSummary>> {
  const read = space.mode === 'blog' ? publishedNewestFirst : publishedInReadingOrder;
  const rows = await read(services.orm, [space.tenantId, space.id, props.limit + 1, (props.page - 1) * props.limit]);
  return toPage(
    rows.map((r) => ({ id: r.id, slug: r.slug, title: r.title, kind: r.kind, excerpt: r.excerpt, publishedAt: r.publishedAt == null ? null : rawDate(r.publishedAt), updatedAt: rawDate(r.updatedAt) })),
    props.limit,
  );
}

// Lean statement (docs/database-path.md): the public article read is the hottest anonymous route. The space
// comes by slug (readPublicSpace, across tenants by design); the article is bound to the space's own tenant; its
// stored HTML comes along (a lazy property, so an extra column).
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
  const space = await readPublicSpace(services, spaceSlug);
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
