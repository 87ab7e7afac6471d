import * as z from 'zod';

/**
 * Output schemas of the tools. The service's documents are described by the fields a client can rely on; each
 * object is loose (the service may add fields without breaking a client that validates structuredContent),
 * and a field the service may leave empty is nullish.
 */
const text = (description: string) => z.string().nullish().describe(description);
const time = (description: string) => z.string().nullish().describe(`${description} (ISO 8601)`);

export const id = (what: string) => z.uuid().describe(`Id of the ${what} (UUID)`);

export const SpaceMode = z
  .enum(['internal', 'public_kb', 'blog'])
  .describe('internal: members only; public_kb: public knowledge base; blog: public blog with subscribers');
export const ArticleKind = z
  .enum(['rich', 'developer'])
  .describe('rich: editor JSON document in `content`; developer: Markdown in `contentMarkdown`. Fixed at creation');
export const ArticleStatus = z
  .enum(['draft', 'review', 'published', 'archived'])
  .describe(
    'Workflow status. Moves: draft -> review, published, archived; review -> draft, published, archived; published -> draft, review, archived; archived -> draft, review, published',
  );
export const SearchLanguage = z
  .enum(['english', 'french', 'german', 'spanish', 'italian', 'portuguese', 'dutch', 'simple'])
  .describe('Text-search language of the articles of the space (stemming, stop words; simple: none). Default english');
/**
 * Longest Markdown source the service accepts for an article (its MAX_MARKDOWN, api/knowledge/dtos.ts). mcp/ is
 * a package of its own that imports nothing of the app, so the number is repeated here; test/mcp/limits.test.ts
 * fails when the two differ.
 */
export const MAX_MARKDOWN = 49_000;

/** Markdown content of an article, bounded as the service bounds it. */
export const markdown = (description: string) =>
  z
    .string()
    .max(MAX_MARKDOWN)
    .describe(`${description} (at most ${MAX_MARKDOWN.toLocaleString('en')} characters)`);

/** Slugs: lower-case letters, digits and single hyphens. */
export const slug = (max: number, description: string) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
    .describe(`${description} (lower-case letters, digits and single hyphens)`);

export const Space = z.looseObject({
  id: id('space'),
  name: z.string().describe('Name of the space'),
  slug: text('Slug, unique across the whole service (public address of public_kb and blog spaces)'),
  mode: z.string().nullish().describe('internal | public_kb | blog'),
  description: text('Description'),
  language: text('Text-search language of its articles'),
  createdAt: time('Creation time'),
  updatedAt: time('Last change'),
});

export const Collection = z.looseObject({
  id: id('collection'),
  spaceId: z.uuid().nullish().describe('Space the collection belongs to'),
  name: z.string().describe('Name of the collection'),
  description: text('Description'),
  sortOrder: z.number().nullish().describe('Position among the collections of the space'),
  createdAt: time('Creation time'),
});

export const Article = z.looseObject({
  id: id('article'),
  spaceId: z.uuid().nullish().describe('Space of the article'),
  collectionId: z.uuid().nullish().describe('Collection of the article'),
  title: z.string().describe('Title'),
  slug: text('Slug, unique within the space'),
  kind: z.string().nullish().describe('rich | developer'),
  status: z.string().nullish().describe('draft | review | published | archived'),
  contentMarkdown: text('Markdown content (developer articles)'),
  content: z.unknown().optional().describe('Editor JSON document (rich articles)'),
  sortOrder: z.number().nullish().describe('Reading order within the space'),
  excerpt: text('The start of the text'),
  version: z.number().nullish().describe('Number of the latest version'),
  publishedAt: time('Publication time'),
  updatedAt: time('Last change'),
});

export const Version = z.looseObject({
  id: id('version'),
  articleId: z.uuid().nullish().describe('Article the version belongs to'),
  number: z.number().nullish().describe('Version number (1 = creation)'),
  title: text('Title at that version'),
  reason: text('Why it was written: created, edited, restored'),
  restoredFrom: z.number().nullish().describe('For a restore: the number of the version brought back'),
  authorId: z.uuid().nullish().describe('The member who wrote it; empty when an integration key did'),
  createdAt: time('When the version was written'),
});

export const SearchHit = z.looseObject({
  id: z.uuid().nullish().describe('Id of the article found'),
  title: text('Title of the article'),
  spaceId: z.uuid().nullish().describe('Space of the article'),
  status: text('Status of the article'),
  snippet: text('HTML-escaped excerpt with the matched words in <mark>'),
  rank: z.number().nullish().describe('Relevance (higher first)'),
  fuzzy: z.boolean().nullish().describe('Found by title similarity only (a typo)'),
});

const nextCursor = z.string().nullish().describe('Pass as `cursor` to get the next page; empty on the last page');

export const pageOf = <T extends z.ZodType>(item: T, what: string) => ({
  items: z.array(item).describe(what),
  nextCursor,
});

export const Deleted = {
  id: id('deleted resource'),
  deleted: z.literal(true).describe('The service confirmed the deletion'),
};

/** Inputs shared by the list tools. */
export const paging = {
  limit: z.number().int().min(1).max(200).optional().describe('Page size (1-200, service default 50)'),
  cursor: z.string().min(1).max(200).optional().describe('nextCursor of the previous page (opaque)'),
};
