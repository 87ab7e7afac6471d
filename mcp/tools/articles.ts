import * as z from 'zod';
import type { Page } from '../api';
import { Article, ArticleKind, ArticleStatus, id, markdown, MAX_MARKDOWN, pageOf, paging, slug } from '../schemas';
import { defineTool } from './define';

export type ArticleDoc = z.infer<typeof Article>;

export const articleLine = (a: ArticleDoc) => `"${a.title}" [${a.status ?? '?'}, ${a.kind ?? '?'}] id ${a.id}`;

const editorDocument = z
  .record(z.string(), z.unknown())
  .describe('Rich articles: the editor JSON document (ProseMirror/Tiptap shape: { "type": "doc", "content": [...] })');

export const articleTools = [
  defineTool({
    name: 'list_articles',
    title: 'List articles of a space',
    description:
      'Lists the articles of a space in reading order (sortOrder), without their content (get_article has it), a page at a time. Archived articles are listed only with status archived.',
    effect: 'read',
    input: {
      spaceId: id('space'),
      status: ArticleStatus.optional().describe('Only articles of this status'),
      collectionId: z.uuid().optional().describe('Only articles of this collection'),
      ...paging,
    },
    output: pageOf(Article, 'Articles of this page'),
    run: (api, { spaceId, ...query }) => api.get<Page<ArticleDoc>>(`/spaces/${spaceId}/articles`, query),
    summary: (r) =>
      `${r.items.length} article(s)${r.nextCursor ? ' (more: pass nextCursor)' : ''}:\n${r.items.map((a) => `- ${articleLine(a)}`).join('\n')}`,
  }),
  defineTool({
    name: 'get_article',
    title: 'Get an article',
    description:
      'Reads one article with its content (contentMarkdown for developer articles, content for rich ones), status and place. Also available as the resource knowledge://article/{id}.',
    effect: 'read',
    input: { articleId: id('article') },
    output: Article.shape,
    run: (api, { articleId }) => api.get<ArticleDoc>(`/articles/${articleId}`),
    summary: (a) => `Article ${articleLine(a)}`,
  }),
  defineTool({
    name: 'create_article',
    title: 'Create an article',
    description:
      'Creates an article in a space (a draft unless status review), last in the reading order unless sortOrder is given. Without kind it is a developer article ' +
      `whose content is Markdown (contentMarkdown, required, at most ${MAX_MARKDOWN.toLocaleString('en')} characters: split a longer text into several articles); a rich article takes an editor JSON document (content). The kind cannot change afterwards. ` +
      'Creation writes version 1; every later content or title change writes the next.',
    effect: 'create',
    input: {
      spaceId: id('space'),
      title: z.string().min(1).max(200).describe('Title'),
      collectionId: z.uuid().optional().describe('A collection of the same space (see list_collections)'),
      kind: ArticleKind.optional(),
      contentMarkdown: markdown('Developer articles (required for them): the Markdown content').optional(),
      content: editorDocument.optional(),
      status: z.enum(['draft', 'review']).optional().describe('draft (default) or review; publish_article publishes'),
      slug: slug(160, 'Slug, unique within the space; derived from the title when absent').optional(),
      sortOrder: z.number().int().min(0).optional().describe('Position in the reading order (default: last)'),
    },
    output: Article.shape,
    run: (api, { spaceId, ...body }) => api.post<ArticleDoc>(`/spaces/${spaceId}/articles`, body),
    summary: (a) => `Created article ${articleLine(a)}`,
  }),
  defineTool({
    name: 'update_article',
    title: 'Update an article',
    description:
      'Changes the title, content of its kind, collection, slug or position of an article; fields left out keep their value. A title or content change writes a new version (see list_article_versions). The kind cannot change; the status changes through set_article_status / publish_article / archive_article.',
    effect: 'update',
    input: {
      articleId: id('article'),
      title: z.string().min(1).max(200).optional().describe('New title'),
      contentMarkdown: markdown('New Markdown content (developer articles only)').optional(),
      content: editorDocument.optional(),
      collectionId: z
        .uuid()
        .nullable()
        .optional()
        .describe('Move the article to this collection of the same space; null takes it out of its collection'),
      slug: slug(160, 'New slug, unique within the space').optional(),
      sortOrder: z.number().int().min(0).optional().describe('New position in the reading order'),
    },
    output: Article.shape,
    run: (api, { articleId, ...changes }) => api.patch<ArticleDoc>(`/articles/${articleId}`, changes),
    summary: (a) => `Updated article ${articleLine(a)}`,
  }),
  defineTool({
    name: 'archive_article',
    title: 'Archive an article',
    description:
      'Archives an article: it leaves the public surface and the default article lists but is kept with its history; set_article_status to draft brings it back. Archiving an archived article answers as done.',
    effect: 'destructive',
    input: { articleId: id('article') },
    output: {
      id: id('archived article'),
      archived: z.literal(true).describe('The service confirmed the archive'),
      article: Article.optional().describe('The archived article, when the service returns it'),
    },
    run: async (api, { articleId }) => {
      const article = await api.delete<ArticleDoc>(`/articles/${articleId}`);
      return { id: articleId, archived: true as const, ...(article ? { article } : {}) };
    },
    summary: (r) => `Archived article ${r.id}`,
  }),
];
