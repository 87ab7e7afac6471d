import type { ArticleStatus } from '../../entities/knowledge/article';
import { decodeCursor, toKeysetPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { articlesInReadingOrder, type ArticleSummary } from './store/articles';
import { checkSpace } from './store/spaces';

export interface ListArticlesProps extends PageProps {
  status?: ArticleStatus;
  collectionId?: string;
  /** Only published articles (callers who may not see drafts). */
  publishedOnly?: boolean;
}

/** A sortOrder as a cursor holds it: a PostgreSQL integer. */
const isSortOrder = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= -2_147_483_648 && (value as number) <= 2_147_483_647;

/**
 * A space's articles in reading order (sortOrder, then creation), without their content. Archived articles are
 * listed only when asked for by status. The cursor (opaque) holds the last article's sortOrder and id; an
 * unreadable one is 400 `validation_failed` on `cursor`.
 */
export async function listArticles(
  ctx: TenantContext,
  spaceId: string,
  props: ListArticlesProps,
): Promise<Page<ArticleSummary>> {
  const status = props.publishedOnly ? 'published' : (props.status ?? null);
  const [sortOrder, id] = props.cursor ? decodeCursor(props.cursor, isSortOrder) : [null, null];
  const filter = {
    status,
    collectionId: props.collectionId ?? null,
    after: [sortOrder, id] as [number | null, string | null],
  };
  const [, rows] = await Promise.all([
    checkSpace(ctx, spaceId),
    articlesInReadingOrder(ctx, spaceId, filter, props.limit + 1),
  ]);
  return toKeysetPage(rows, props.limit, (row) => row.sortOrder);
}
