import { KnowledgeArticle, type ArticleStatus } from '../../entities/knowledge/article';
import { keysetAfter, lean, type Lean } from '../../lib/lean';
import { decodeCursor, toKeysetPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { checkSpace } from './lookup';

export interface ListArticlesProps extends PageProps {
  status?: ArticleStatus;
  collectionId?: string;
  /** Only published articles (callers who may not see drafts). */
  publishedOnly?: boolean;
}

/** What an article list shows (KbArticleSummaryView): no content, no stored HTML or text. */
export const articleSummaryColumns = ['id', 'spaceId', 'collectionId', 'title', 'slug', 'kind', 'status', 'sortOrder', 'excerpt', 'version', 'authorId', 'publishedAt', 'createdAt', 'updatedAt'] as const;
export type ArticleSummary = Pick<Lean<KnowledgeArticle>, (typeof articleSummaryColumns)[number]>;

// A lean statement (docs/database-path.md): every combination of filters is one prepared statement. $2 is the
// status asked for (null: any but archived). The page starts after the cursor's position (sortOrder $4, id $5;
// both null on the first page) by (sortOrder, id), an index range on (space_id, sort_order). The cursor names no
// row: a deleted last article does not move the next page.
const articlesPage = lean(KnowledgeArticle, {
  columns: articleSummaryColumns,
  where: `knowledge_articles.space_id = $1 and (($2::text is null and knowledge_articles.status <> 'archived') or knowledge_articles.status = $2)
    and ($3::uuid is null or knowledge_articles.collection_id = $3) and ${keysetAfter('knowledge_articles', 'sort_order', '$4::int', '$5::uuid', "'-2147483648'::int")}`,
  orderBy: 'knowledge_articles.sort_order asc, knowledge_articles.id asc',
  limitParam: '$6',
});

/** A sortOrder as a cursor holds it: a PostgreSQL integer. */
const isSortOrder = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= -2_147_483_648 && (value as number) <= 2_147_483_647;

/**
 * A space's articles in reading order (sortOrder, then creation), without their content. Archived articles are
 * listed only when asked for by status. The cursor (opaque) holds the last article's sortOrder and id; an
 * unreadable one is 400 `validation_failed` on `cursor`.
 */
export async function listArticles(ctx: TenantContext, spaceId: string, props: ListArticlesProps): Promise<Page<ArticleSummary>> {
  const status = props.publishedOnly ? 'published' : (props.status ?? null);
  const [sortOrder, id] = props.cursor ? decodeCursor(props.cursor, isSortOrder) : [null, null];
  const [, rows] = await Promise.all([checkSpace(ctx, spaceId), articlesPage.all(ctx, spaceId, status, props.collectionId ?? null, sortOrder, id, props.limit + 1)]);
  return toKeysetPage(rows, props.limit, (row) => row.sortOrder);
}
