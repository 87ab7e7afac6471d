import * as z from 'zod';
import { Article, ArticleStatus, id, pageOf, paging, SearchHit, Version } from '../schemas';
import { articleLine, type ArticleDoc } from './articles';
import { defineTool } from './define';

type VersionDoc = z.infer<typeof Version>;
type HitDoc = z.infer<typeof SearchHit>;
type Page<T> = { items: T[]; nextCursor?: string | null };

/** Status, publication, reading order, versions and search. */
export const workflowTools = [
  defineTool({
    name: 'set_article_status',
    title: 'Set the status of an article',
    description: 'Moves an article through its workflow: draft, review, published, archived. A move the workflow does not allow answers 409 invalid_transition (the message says which moves are allowed).',
    effect: 'update',
    input: { articleId: id('article'), status: ArticleStatus },
    output: Article.shape,
    run: (api, { articleId, status }) => api.post<ArticleDoc>(`/articles/${articleId}/status`, { status }),
    summary: (a) => `Article ${articleLine(a)}`,
  }),
  defineTool({
    name: 'publish_article',
    title: 'Publish an article',
    description: 'Publishes an article: in a public_kb or blog space it becomes readable on the public surface (a blog article is mailed to its confirmed subscribers once).',
    effect: 'update',
    input: { articleId: id('article') },
    output: Article.shape,
    run: (api, { articleId }) => api.post<ArticleDoc>(`/articles/${articleId}/publish`),
    summary: (a) => `Published article ${articleLine(a)}`,
  }),
  defineTool({
    name: 'reorder_articles',
    title: 'Reorder the articles of a space',
    description: 'Sets the reading order of a space: articleIds in the wanted order (the articles of that space), rewritten in one transaction.',
    effect: 'update',
    input: { spaceId: id('space'), articleIds: z.array(z.uuid()).min(1).max(1000).describe('Ids of the articles of the space, in reading order') },
    output: { spaceId: id('space'), articleIds: z.array(z.uuid()).describe('The reading order sent'), items: z.array(Article).optional().describe('The articles in their new order, when the service returns them') },
    run: async (api, { spaceId, articleIds }) => {
      const answer = await api.post<Page<ArticleDoc> | ArticleDoc[] | null>(`/spaces/${spaceId}/articles/reorder`, { articleIds });
      const items = Array.isArray(answer) ? answer : answer?.items;
      return { spaceId, articleIds, ...(items ? { items } : {}) };
    },
    summary: (r) => `Reordered ${r.articleIds.length} article(s) of space ${r.spaceId}`,
  }),
  defineTool({
    name: 'list_article_versions',
    title: 'List the versions of an article',
    description: 'Lists the version history of an article, newest first: every title or content change wrote one (author, time).',
    effect: 'read',
    input: { articleId: id('article'), ...paging },
    output: pageOf(Version, 'Versions of this page'),
    run: (api, { articleId, ...query }) => api.get<Page<VersionDoc>>(`/articles/${articleId}/versions`, query),
    summary: (r) => `${r.items.length} version(s):\n${r.items.map((v) => `- ${v.createdAt ?? ''} "${v.title ?? ''}" id ${v.id}`).join('\n')}`,
  }),
  defineTool({
    name: 'restore_article_version',
    title: 'Restore a version of an article',
    description: 'Restores the title and content of an earlier version. History is never rewritten: the restore itself is written as a new version.',
    effect: 'update',
    idempotent: false,
    input: { articleId: id('article'), versionId: id('version to restore') },
    output: Article.shape,
    run: (api, { articleId, versionId }) => api.post<ArticleDoc>(`/articles/${articleId}/versions/${versionId}/restore`),
    summary: (a) => `Restored article ${articleLine(a)}`,
  }),
  defineTool({
    name: 'search_articles',
    title: 'Search articles',
    description: 'Full-text search over the titles and content of the articles of the organisation, best match first, with an excerpt around the matching terms; tolerant of a typo in a title.',
    effect: 'read',
    input: {
      query: z.string().min(1).max(500).describe('Words to look for'),
      spaceId: z.uuid().optional().describe('Only this space'),
      limit: paging.limit,
    },
    output: { items: z.array(SearchHit).describe('Matching articles, best first'), nextCursor: z.string().nullish().describe('Next page, when the service pages results') },
    run: (api, { query, ...rest }) => api.get<Page<HitDoc>>('/search', { q: query, ...rest }),
    summary: (r) => `${r.items.length} result(s):\n${r.items.map((h) => `- "${h.title ?? ''}" id ${h.id ?? '?'}${h.snippet ? `: ${h.snippet}` : ''}`).join('\n')}`,
  }),
];
