import { KnowledgeArticleVersion } from '../../entities/knowledge/article';
import { cursorWhere, toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { findArticle } from './lookup';

/** An article's history, newest first (each version holds its title and content). */
export async function listVersions(ctx: TenantContext, articleId: string, props: PageProps): Promise<Page<KnowledgeArticleVersion>> {
  const article = await findArticle(ctx.em, articleId);
  const rows = await ctx.em.find(KnowledgeArticleVersion, { articleId: article.id, ...cursorWhere(props.cursor, 'desc') }, { orderBy: { id: 'desc' }, limit: props.limit + 1 });
  return toPage(rows, props.limit);
}
