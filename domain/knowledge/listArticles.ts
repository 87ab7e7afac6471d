import { KnowledgeArticle, type ArticleStatus } from '../../entities/knowledge/article';
import { cursorWhere, toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { findSpace } from './lookup';

export interface ListArticlesProps extends PageProps {
  status?: ArticleStatus;
  collectionId?: string;
  /** Only published articles (callers who may not see drafts). */
  publishedOnly?: boolean;
}

/**
 * A space's articles in reading order (sortOrder, then creation), without their content. Archived articles are
 * listed only when asked for by status. The cursor is the id of the last article of the previous page.
 */
export async function listArticles(ctx: TenantContext, spaceId: string, props: ListArticlesProps): Promise<Page<Omit<KnowledgeArticle, 'content' | 'contentMarkdown'>>> {
  const space = await findSpace(ctx.em, spaceId);
  const status = props.publishedOnly ? 'published' : (props.status ?? { $ne: 'archived' as const });
  const where = { spaceId: space.id, status, ...(props.collectionId ? { collectionId: props.collectionId } : {}) };
  let after = {};
  if (props.cursor) {
    const last = await ctx.em.findOne(KnowledgeArticle, { id: props.cursor, spaceId: space.id }, { fields: ['sortOrder'] });
    after = last ? { $or: [{ sortOrder: { $gt: last.sortOrder } }, { sortOrder: last.sortOrder, ...cursorWhere(props.cursor, 'asc') }] } : {};
  }
  const rows = await ctx.em.find(KnowledgeArticle, { ...where, ...after }, { orderBy: [{ sortOrder: 'asc' }, { id: 'asc' }], limit: props.limit + 1, exclude: ['content', 'contentMarkdown'] });
  return toPage(rows, props.limit);
}
