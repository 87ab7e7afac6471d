import type { KnowledgeArticleVersion } from '../../entities/knowledge/article';
import type { Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { checkArticle } from './lookup';
import { versionsNewestFirst } from './store/articles';

/** An article's history, newest first (each version holds its title and content). */
export async function listVersions(
  ctx: TenantContext,
  articleId: string,
  props: PageProps & { publishedOnly: boolean },
): Promise<Page<Lean<KnowledgeArticleVersion>>> {
  const [, rows] = await Promise.all([
    checkArticle(ctx, articleId, props),
    versionsNewestFirst(ctx, articleId, props.cursor ?? null, props.limit + 1),
  ]);
  return toPage(rows, props.limit);
}
