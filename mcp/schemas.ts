import * as z from 'zod';

/**
 * Output schemas of the tools. The service's documents are described by the fields a client can rely on; each
 * object is loose (the service may add fields without breaking a client that validates structuredContent),
 * and a field the service may leave empty is nullish.
 */
const text = (description: string) => z.string().nullish().describe(description);
const time = (description: string) => z.string().nullish().describe(`${description} (ISO 8601)`);

export const id = (what: string) => z.uuid().describe(`Id of the ${what} (UUID)`);

export const SpaceMode = z.enum(['internal', 'public_kb', 'blog']).describe('internal: members only; public_kb: public knowledge base; blog: public blog with subscribers');
export const ArticleKind = z.enum(['rich', 'developer']).describe('rich: editor JSON document in `content`; developer: Markdown in `contentMarkdown`. Fixed at creation');
export const ArticleStatus = z.enum(['draft', 'review', 'published', 'archived']).describe('Workflow status of the article');

export const Space = z.looseObject({
  id: id('space'),
  name: z.string().describe('Name of the space'),
  slug: text('Slug, unique across the whole service (public address of public_kb and blog spaces)'),
  mode: z.string().nullish().describe('internal | public_kb | blog'),
  description: text('Description'),
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
  publishedAt: time('Publication time'),
  updatedAt: time('Last change'),
});

export const Version = z.looseObject({
  id: id('version'),
  articleId: z.uuid().nullish().describe('Article the version belongs to'),
  title: text('Title at that version'),
  createdAt: time('When the version was written'),
});

export const SearchHit = z.looseObject({
  id: z.uuid().nullish().describe('Id of the article found'),
  title: text('Title of the article'),
  snippet: text('Excerpt around the matching terms'),
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
  cursor: z.uuid().optional().describe('nextCursor of the previous page'),
};
