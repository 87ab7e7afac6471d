import { KnowledgeArticle } from '../../entities/knowledge/article';
import type { KnowledgeSpace } from '../../entities/knowledge/space';
import type { Em } from '../../lib/db';
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

export interface PublicArticle {
  article: KnowledgeArticle;
  /** The content rendered as sanitised HTML. */
  html: string;
}

/** A published article of a public space by its slug (404 for a draft, a review, an archived or unknown one). */
export async function getPublicArticle(em: Em, space: KnowledgeSpace, slug: string): Promise<PublicArticle> {
  const article = await em.findOne(KnowledgeArticle, { spaceId: space.id, slug, status: 'published' }, { filters: false });
  if (!article) throw notFound('Article');
  return { article, html: contentHtml(article.kind, article.content ?? null, article.contentMarkdown ?? null) };
}
