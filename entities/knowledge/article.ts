import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';
import { searchLanguages } from './space';

export const articleKinds = ['rich', 'developer'] as const;
export type ArticleKind = (typeof articleKinds)[number];
export const articleStatuses = ['draft', 'review', 'published', 'archived'] as const;
export type ArticleStatus = (typeof articleStatuses)[number];

/** A node of a rich (ProseMirror / Tiptap) document. */
export interface RichNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: RichNode[];
  text?: string;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
}

/**
 * An article of a space. `kind` is fixed at creation (a trigger refuses any change): `rich` holds an editor
 * JSON document in `content`, `developer` Markdown in `contentMarkdown` (a check keeps the other one null).
 * `bodyText` is the content as plain text (rich documents flattened, Markdown stripped), written with the
 * content; the database derives `searchVector` from title (weight A) and bodyText (weight B) with the space's
 * text-search configuration (a generated column, GIN-indexed); a trigram index on the title finds typos.
 * `contentHtml` is the public rendering, kept beside the source.
 */
/** Column sizes of articles, their versions and comments, which the request bodies bound too. */
export const ARTICLE_COLUMNS = { title: 200, slug: 160, excerpt: 300, commentBody: 5000 } as const;

export const KnowledgeArticle = defineEntity({
  name: 'KnowledgeArticle',
  tableName: 'knowledge_articles',
  filters: tenantFilter,
  uniques: [{ properties: ['spaceId', 'slug'] }],
  indexes: [
    { properties: ['spaceId', 'sortOrder'] },
    { properties: ['tenantId', 'status', 'id'] },
    {
      name: 'knowledge_articles_search_index',
      expression:
        'create index "knowledge_articles_search_index" on "knowledge_articles" using gin ("search_vector") with (fastupdate = off)',
    },
    {
      name: 'knowledge_articles_title_search_index',
      expression: `create index "knowledge_articles_title_search_index" on "knowledge_articles" using gin (knowledge_search_vector(language, title, '')) with (fastupdate = off)`,
    },
    {
      name: 'knowledge_articles_title_trgm_index',
      expression:
        'create index "knowledge_articles_title_trgm_index" on "knowledge_articles" using gin (public.immutable_unaccent("title") gin_trgm_ops) with (fastupdate = off)',
    },
  ],
  checks: [
    {
      name: 'knowledge_articles_content_check',
      expression: `("kind" = 'rich' and "content_markdown" is null) or ("kind" = 'developer' and "content" is null)`,
    },
  ],
  properties: {
    ...tenantColumns(),
    spaceId: p.uuid(),
    collectionId: p.uuid().nullable(),
    title: p.string().length(ARTICLE_COLUMNS.title),
    slug: p.string().length(ARTICLE_COLUMNS.slug),
    kind: p.enum([...articleKinds]),
    status: p.enum([...articleStatuses]).default('draft'),
    sortOrder: p.integer().default(0),
    content: p.json<RichNode>().nullable(),
    contentMarkdown: p.text().nullable(),
    bodyText: p.text().default('').lazy(true, false),
    /**
     * The content rendered and sanitised (domain/knowledge/content.ts), written with every version so a public
     * read renders nothing; null until then for rows written before the column (filled by the first public read).
     * A change of the renderer or its allow-list clears the column in a migration.
     */
    contentHtml: p.text().nullable().lazy(true, false),
    excerpt: p.string().length(ARTICLE_COLUMNS.excerpt).default(''),
    /** The space's text-search configuration, copied so the generated column can use it. */
    language: p.enum([...searchLanguages]).default('english'),
    /** Number of the latest version. */
    version: p.integer().default(1),
    authorId: p.uuid().nullable(),
    updatedBy: p.uuid().nullable(),
    publishedAt: p.datetime().nullable(),
    /**
     * When the mailing to the blog's subscribers was staged (domain/knowledge/mailArticle.ts). A batch that finds
     * the article unpublished stops the mailing there: it clears this stamp and records where it stopped in
     * `mailingAfterSubscriberId`, so the next publication resumes it (each subscriber is still mailed once).
     */
    mailedAt: p.datetime().nullable(),
    /** Where a stopped mailing resumes: the subscribers after this id (null: from the first one). */
    mailingAfterSubscriberId: p.uuid().nullable(),
    updatedAt: updatedAt(),
    searchVector: p
      .string()
      .columnType('tsvector')
      .generated('(knowledge_search_vector(language, title, body_text)) stored')
      .ignoreSchemaChanges('type', 'extra')
      .lazy(true, false)
      .nullable(),
  },
});
export type KnowledgeArticle = InferEntity<typeof KnowledgeArticle>;

export const versionReasons = ['created', 'edited', 'restored'] as const;

/** One state of an article's title and content. Append-only: a trigger refuses updates; restoring writes a new one. */
export const KnowledgeArticleVersion = defineEntity({
  name: 'KnowledgeArticleVersion',
  tableName: 'knowledge_article_versions',
  filters: tenantFilter,
  uniques: [{ properties: ['articleId', 'number'] }],
  properties: {
    ...tenantColumns(),
    articleId: p.uuid(),
    number: p.integer(),
    title: p.string().length(ARTICLE_COLUMNS.title),
    content: p.json<RichNode>().nullable(),
    contentMarkdown: p.text().nullable(),
    reason: p.enum([...versionReasons]),
    restoredFrom: p.integer().nullable(),
    /** The member who wrote it; null when an integration key did (apiKeyId). */
    authorId: p.uuid().nullable(),
    apiKeyId: p.uuid().nullable(),
  },
});
export type KnowledgeArticleVersion = InferEntity<typeof KnowledgeArticleVersion>;

/** A member's comment on an article; its author may edit or delete it. */
export const KnowledgeComment = defineEntity({
  name: 'KnowledgeComment',
  tableName: 'knowledge_comments',
  filters: tenantFilter,
  indexes: [{ properties: ['articleId', 'id'] }],
  properties: {
    ...tenantColumns(),
    articleId: p.uuid(),
    authorId: p.uuid(),
    body: p.string().length(ARTICLE_COLUMNS.commentBody),
    editedAt: p.datetime().nullable(),
  },
});
export type KnowledgeComment = InferEntity<typeof KnowledgeComment>;
