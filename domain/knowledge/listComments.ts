import type { KnowledgeComment } from '../../entities/knowledge/article';
import type { Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { checkArticle } from './lookup';
import { commentsOldestFirst } from './store/articles';

/** An article's comments, oldest first (`publishedOnly`: an unpublished article is a 404). */
export async function listComments(
  ctx: TenantContext,
  articleId: string,
  props: PageProps & { publishedOnly: boolean },
): Promise<Page<Lean<KnowledgeComment>>> {
  const [, rows] = await Promise.all([
    checkArticle(ctx, articleId, props),
    commentsOldestFirst(ctx, articleId, props.cursor ?? null, props.limit + 1),
  ]);
  return toPage(rows, props.limit);
}
