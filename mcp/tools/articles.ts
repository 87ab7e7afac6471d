import * as z from 'zod';
import { Article, ArticleKind, id, pageOf, paging } from '../schemas';
import { defineTool } from './define';

export type ArticleDoc = z.infer<typeof Article>;
type Page<T> = { items: T[]; nextCursor?: string | null };

export const articleLine = (a: ArticleDoc) => `"${a.title}" [${a.status ?? '?'}, ${a.kind ?? '?'}] id ${a.id}`;

const editorDocument = z.record(z.string(), z.unknown()).describe('Rich articles: the editor JSON document (ProseMirror/Tiptap shape: { "type": "doc", "content": [...] })');

export const articleTools = [
  defineTool({
    name: 'list_articles',
    title: 'List articles of a space',
    description: 'Lists the articles of a space in reading order (sortOrder), every status included, a page at a time. Use get_article for the content.',
    effect: 'read',
    input: { spaceId: id('space'), ...paging },
    output: pageOf(Article, 'Articles of this page'),
    run: (api, { spaceId, ...query }) => api.get<Page<ArticleDoc>>(`/spaces/${spaceId}/articles`, query),
    summary: (r) => `${r.items.length} article(s)${r.nextCursor ? ' (more: pass nextCursor)' : ''}:\n${r.items.map((a) => `- ${articleLine(a)}`).join('\n')}`,
  }),
  defineTool({
    name: 'get_article',
    title: 'Get an article',
    description: 'Reads one article with its content (contentMarkdown for developer articles, content for rich ones), status and place. Also available as the resource knowledge://article/{id}.',
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
      'Creates a draft article in a collection of a space. Without kind it is a developer article whose content is Markdown (contentMarkdown); ' +
      'a rich article takes an editor JSON document (content). The kind cannot change afterwards. Every later content or title change is kept as a version.',
    effect: 'create',
    input: {
      spaceId: id('space'),
      collectionId: id('collection the article belongs to'),
      title: z.string().min(1).max(300).describe('Title'),
      kind: ArticleKind.optional(),
      contentMarkdown: z.string().max(1_000_000).optional().describe('Developer articles: the Markdown content'),
      content: editorDocument.optional(),
      slug: z.string().min(1).max(200).optional().describe('Slug, unique within the space; derived from the title when absent'),
    },
    output: Article.shape,
    run: (api, { spaceId, ...body }) => api.post<ArticleDoc>(`/spaces/${spaceId}/articles`, body),
    summary: (a) => `Created article ${articleLine(a)}`,
  }),
  defineTool({
    name: 'update_article',
    title: 'Update an article',
    description: 'Changes the title, content, collection or slug of an article; fields left out keep their value. A title or content change writes a new version (see list_article_versions). The kind cannot change; the status changes through set_article_status / publish_article.',
    effect: 'update',
    input: {
      articleId: id('article'),
      title: z.string().min(1).max(300).optional().describe('New title'),
      contentMarkdown: z.string().max(1_000_000).optional().describe('New Markdown content (developer articles)'),
      content: editorDocument.optional(),
      collectionId: z.uuid().optional().describe('Move the article to this collection of the same space'),
      slug: z.string().min(1).max(200).optional().describe('New slug (unique within the space)'),
    },
    output: Article.shape,
    run: (api, { articleId, ...changes }) => api.patch<ArticleDoc>(`/articles/${articleId}`, changes),
    summary: (a) => `Updated article ${articleLine(a)}`,
  }),
  defineTool({
    name: 'archive_article',
    title: 'Archive an article',
    description: 'Archives an article (DELETE /articles/{id}): it leaves public spaces and lists of current articles but is kept with its versions; set_article_status can bring it back to draft.',
    effect: 'destructive',
    input: { articleId: id('article') },
    output: { id: id('archived article'), archived: z.literal(true).describe('The service confirmed the archive'), article: Article.optional().describe('The archived article, when the service returns it') },
    run: async (api, { articleId }) => {
      const article = await api.delete<ArticleDoc>(`/articles/${articleId}`);
      return { id: articleId, archived: true as const, ...(article ? { article } : {}) };
    },
    summary: (r) => `Archived article ${r.id}`,
  }),
];
