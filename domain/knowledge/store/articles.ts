import { LockMode } from '@mikro-orm/core';
import {
  KnowledgeArticle,
  KnowledgeArticleVersion,
  KnowledgeComment,
  type ArticleStatus,
} from '../../../entities/knowledge/article';
import type { KnowledgeSpace } from '../../../entities/knowledge/space';
import type { Em } from '../../../lib/db';
import { notFound } from '../../../lib/errors';
import { keysetAfter, lean, preparedRead, type Lean, type LeanScope } from '../../../lib/lean';
import type { Services } from '../../services';

/**
 * Statements of articles, their versions and comments. The em lookups serve use cases that change what they
 * read (their em, their transaction, their lock); the lean statements (docs/database-path.md) serve reads that
 * only present or check a record. Lookups by id answer 404 for another organisation's id (tenant filter).
 */

/** `lock` takes the row for the transaction (status moves, restores); `withBody` loads the lazy text. */
export async function findArticle(
  em: Em,
  id: string,
  options: { withBody?: boolean; lock?: boolean } = {},
): Promise<KnowledgeArticle> {
  const article = await em.findOne(
    KnowledgeArticle,
    { id },
    {
      ...(options.withBody ? { populate: ['bodyText'] as const } : {}),
      ...(options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}),
    },
  );
  if (!article) throw notFound('Article');
  return article;
}

/** The article with its text, or null (`refresh`: read again, not from the em's identity map). */
export const articleWithBody = (em: Em, id: string, { refresh = false } = {}): Promise<KnowledgeArticle | null> =>
  em.findOne(KnowledgeArticle, { id }, { populate: ['bodyText'], ...(refresh ? { refresh: true } : {}) });

const articleById = lean(KnowledgeArticle, { where: 'id = $1' });
const articleStatus = lean(KnowledgeArticle, { columns: ['status'], where: 'id = $1' });

/** An article of the organisation without its lazy columns (lean), or 404. */
export const readArticle = (scope: LeanScope, id: string): Promise<Lean<KnowledgeArticle>> =>
  articleById.byId('Article', scope, id);

/** The status of an article of the organisation, or null. */
export const statusOfArticle = (scope: LeanScope, id: string): Promise<{ status: ArticleStatus } | null> =>
  articleStatus.one(scope, id);

/** What an article list shows (KbArticleSummaryView): no content, no stored HTML or text. */
export const articleSummaryColumns = [
  'id',
  'spaceId',
  'collectionId',
  'title',
  'slug',
  'kind',
  'status',
  'sortOrder',
  'excerpt',
  'version',
  'authorId',
  'publishedAt',
  'createdAt',
  'updatedAt',
] as const;
export type ArticleSummary = Pick<Lean<KnowledgeArticle>, (typeof articleSummaryColumns)[number]>;

// Every combination of filters is one prepared statement. $2 is the status asked for (null: any but archived).
// The page starts after the cursor's position (sortOrder $4, id $5; both null on the first page) by (sortOrder,
// id), an index range on (space_id, sort_order). The cursor names no row: a deleted last article does not move
// the next page.
const articlesPage = lean(KnowledgeArticle, {
  columns: articleSummaryColumns,
  where: `knowledge_articles.space_id = $1 and (($2::text is null and knowledge_articles.status <> 'archived') or knowledge_articles.status = $2)
    and ($3::uuid is null or knowledge_articles.collection_id = $3) and ${keysetAfter('knowledge_articles', 'sort_order', '$4::int', '$5::uuid', "'-2147483648'::int")}`,
  orderBy: 'knowledge_articles.sort_order asc, knowledge_articles.id asc',
  limitParam: '$6',
});

export interface ArticlesFilter {
  status: ArticleStatus | null;
  collectionId: string | null;
  /** The position of the last article of the previous page (both null on the first page). */
  after: [sortOrder: number | null, id: string | null];
}

/** `limit` summaries of a space's articles in reading order. */
export const articlesInReadingOrder = (
  scope: LeanScope,
  spaceId: string,
  filter: ArticlesFilter,
  limit: number,
): Promise<ArticleSummary[]> =>
  articlesPage.all(scope, spaceId, filter.status, filter.collectionId, filter.after[0], filter.after[1], limit);

/** The sortOrder of the space's last article in reading order, or null for an empty space. */
export const lastArticleOfSpace = (em: Em, spaceId: string): Promise<{ sortOrder: number } | null> =>
  em.findOne(KnowledgeArticle, { spaceId }, { orderBy: { sortOrder: 'desc' }, fields: ['sortOrder'] });

const exceptArticle = (exceptId: string | undefined) => (exceptId ? { id: { $ne: exceptId } } : {});

/** Whether another article of the space has this slug. */
export const articleSlugTaken = async (em: Em, spaceId: string, slug: string, exceptId?: string): Promise<boolean> =>
  !!(await em.findOne(KnowledgeArticle, { spaceId, slug, ...exceptArticle(exceptId) }, { fields: ['id'] }));

/** The slugs of the space's other articles that start with `base`. */
export const articleSlugsStartingWith = async (
  em: Em,
  spaceId: string,
  base: string,
  exceptId?: string,
): Promise<Set<string>> =>
  new Set(
    (
      await em.find(
        KnowledgeArticle,
        { spaceId, slug: { $like: `${base}%` }, ...exceptArticle(exceptId) },
        { fields: ['slug'] },
      )
    ).map((r) => r.slug),
  );

/** How many of `ids` are articles of the space. */
export const countArticlesOfSpace = (em: Em, spaceId: string, ids: string[]): Promise<number> =>
  em.count(KnowledgeArticle, { spaceId, id: { $in: ids } });

/**
 * One statement: the listed articles get sortOrder 0, 1, ... in the given order, the others of the space follow
 * in their previous order; only rows whose position changes are written. Returns how many were.
 */
export async function renumberArticles(
  em: Em,
  tenantId: string,
  spaceId: string,
  articleIds: string[],
): Promise<number> {
  const ids = `{${articleIds.join(',')}}`;
  const rows = await em.execute<{ n: number }[]>(
    `with listed as (select t.id, t.ord - 1 as pos from unnest(?::uuid[]) with ordinality as t(id, ord)),
          rest as (select a.id, ? + row_number() over (order by a.sort_order, a.id) - 1 as pos from knowledge_articles a where a.tenant_id = ? and a.space_id = ? and a.id <> all(?::uuid[])),
          moved as (update knowledge_articles a set sort_order = p.pos, updated_at = now() from (select * from listed union all select * from rest) p where a.id = p.id and a.tenant_id = ? and a.space_id = ? and a.sort_order is distinct from p.pos returning 1)
     select count(*)::int as n from moved`,
    [ids, articleIds.length, tenantId, spaceId, ids, tenantId, spaceId],
  );
  return rows[0]?.n ?? 0;
}

/** Every article of a collection leaves it (they stay in the space). */
export const detachFromCollection = (em: Em, collectionId: string) =>
  em.nativeUpdate(KnowledgeArticle, { collectionId }, { collectionId: null });

/** The search language of a space's articles follows the space's (their generated search column with it). */
export const setArticlesLanguage = (em: Em, spaceId: string, language: KnowledgeSpace['language']) =>
  em.nativeUpdate(KnowledgeArticle, { spaceId }, { language });

/** The ids, titles and texts of articles of any organisation (the caller found them in its scope). */
export const articleTexts = (em: Em, ids: string[]) =>
  em.find(
    KnowledgeArticle,
    { id: { $in: ids } },
    { filters: false, populate: ['bodyText'], fields: ['id', 'title', 'bodyText'] },
  );

/**
 * Records that an article's mailing stopped before the subscribers after `afterSubscriberId`, unless the article
 * is published (again) by now; one statement, so it waits for a status change in progress and sees its outcome.
 * Whether it did.
 */
export async function stopMailingUnlessPublished(
  em: Em,
  articleId: string,
  afterSubscriberId: string | null,
): Promise<boolean> {
  const stopped = await em.nativeUpdate(
    KnowledgeArticle,
    { id: articleId, status: { $ne: 'published' }, mailedAt: { $ne: null } },
    { mailedAt: null, mailingAfterSubscriberId: afterSubscriberId },
  );
  return stopped > 0;
}

// --- The public surface: bound to the space's own tenant ($1).

export interface PublicArticleRow {
  id: string;
  slug: string;
  title: string;
  kind: KnowledgeArticle['kind'];
  excerpt: string;
  publishedAt: unknown;
  updatedAt: unknown;
}

// Prepared reads: offset pages are beyond lean(). The columns the list shows; knowledge bases in reading order, blogs newest first.
const PUBLIC_LIST = `select id, slug, title, kind, excerpt, published_at as "publishedAt", updated_at as "updatedAt" from knowledge_articles where tenant_id = $1 and space_id = $2 and status = 'published'`;
const publishedInReadingOrder = preparedRead<PublicArticleRow>(
  `${PUBLIC_LIST} order by sort_order asc, id asc limit $3 offset $4`,
);
const publishedNewestFirst = preparedRead<PublicArticleRow>(
  `${PUBLIC_LIST} order by published_at desc, id desc limit $3 offset $4`,
);

/** `limit` published articles of a space from `offset`, in reading order or (`newestFirst`) by publication. */
export const publishedArticles = (
  services: Services,
  space: Pick<Lean<KnowledgeSpace>, 'id' | 'tenantId'>,
  order: 'reading' | 'newestFirst',
  limit: number,
  offset: number,
): Promise<PublicArticleRow[]> =>
  (order === 'newestFirst' ? publishedNewestFirst : publishedInReadingOrder)(services.orm, [
    space.tenantId,
    space.id,
    limit,
    offset,
  ]);

// The hottest anonymous route; its stored HTML comes along (a lazy property, so an extra column).
const publishedBySlug = lean(KnowledgeArticle, {
  where: `space_id = $1 and slug = $2 and status = 'published'`,
  extra: { contentHtml: 'content_html' },
});

/** The published article of a space by its slug, with its stored HTML (null when not stored yet), or null. */
export const publishedArticleBySlug = (
  services: Services,
  space: Pick<Lean<KnowledgeSpace>, 'id' | 'tenantId'>,
  slug: string,
) => publishedBySlug.one({ services, tenantId: space.tenantId }, space.id, slug);

/** Stores an article's rendered HTML, only while its version is the one rendered and none is stored. */
export const storeArticleHtml = (
  services: Services,
  article: Pick<KnowledgeArticle, 'id' | 'tenantId' | 'version'>,
  html: string,
) =>
  services.orm.em
    .fork()
    .nativeUpdate(
      KnowledgeArticle,
      { id: article.id, tenantId: article.tenantId, version: article.version, contentHtml: null },
      { contentHtml: html },
      { filters: false },
    );

// --- Versions and comments

// Newest first, so the cursor's page holds the older ids.
const versionsPage = lean(KnowledgeArticleVersion, {
  where: 'article_id = $1 and ($2::uuid is null or id < $2)',
  orderBy: 'id desc',
  limitParam: '$3',
});

export const versionsNewestFirst = (
  scope: LeanScope,
  articleId: string,
  before: string | null,
  limit: number,
): Promise<Lean<KnowledgeArticleVersion>[]> => versionsPage.all(scope, articleId, before, limit);

/** A version of this article, or 404 (another article's version included). */
export async function findVersion(em: Em, articleId: string, id: string): Promise<KnowledgeArticleVersion> {
  const version = await em.findOne(KnowledgeArticleVersion, { id, articleId });
  if (!version) throw notFound('Version');
  return version;
}

const commentsPage = lean(KnowledgeComment, {
  where: 'article_id = $1 and ($2::uuid is null or id > $2)',
  orderBy: 'id asc',
  limitParam: '$3',
});

export const commentsOldestFirst = (
  scope: LeanScope,
  articleId: string,
  after: string | null,
  limit: number,
): Promise<Lean<KnowledgeComment>[]> => commentsPage.all(scope, articleId, after, limit);

export async function findComment(em: Em, id: string): Promise<KnowledgeComment> {
  const comment = await em.findOne(KnowledgeComment, { id });
  if (!comment) throw notFound('Comment');
  return comment;
}
