import { KnowledgeArticleVersion } from '../../entities/knowledge/article';
import { lean, type Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { checkArticle } from './lookup';

// A lean statement (docs/database-path.md); newest first, so the cursor's page holds the older ids.
const versionsPage = lean(KnowledgeArticleVersion, { where: 'article_id = $1 and ($2::uuid is null or id < $2)', orderBy: 'id desc', limitParam: '$3' });

/** An article's history, newest first (each version holds its title and content). */
export async function listVersions(ctx: TenantContext, articleId: string, props: PageProps & { publishedOnly: boolean }): Promise<Page<Lean<KnowledgeArticleVersion>>> {
  const [, rows] = await Promise.all([checkArticle(ctx, articleId, props), versionsPage.all(ctx, articleId, props.cursor ?? null, props.limit + 1)]);
  return toPage(rows, props.limit);
}
