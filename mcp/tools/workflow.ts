import * as z from 'zod';
import type { Page } from '../api';
import { Article, ArticleStatus, id, pageOf, paging, SearchHit, Version } from '../schemas';
import { articleLine, type ArticleDoc } from './articles';
import { defineTool } from './define';

type VersionDoc = z.infer<typeof Version>;
type HitDoc = z.infer<typeof SearchHit>;

/** Status, publication, reading order, versions and search. */
export const workflowTools = [
  defineTool({
    name: 'set_article_status',
    title: 'Set the status of an article',
    description:
      'Moves an article through its workflow. Allowed: draft -> review, published, archived; review -> draft, published, archived; published -> draft, review, archived; archived -> draft, review, published. Staying in the same status answers 409 invalid_transition.',
    effect: 'update',
    input: { articleId: id('article'), status: ArticleStatus },
    output: Article.shape,
    run: (api, { articleId, status }) => api.post<ArticleDoc>(`/articles/${articleId}/status`, { status }),
    summary: (a) => `Article ${articleLine(a)}`,
  }),
  defineTool({
    name: 'publish_article',
    title: 'Publish an article',
    description:
      'Publishes an article from any status (one already published is left as is): in a public_kb or blog space it becomes readable on the public surface; a blog article is mailed to its confirmed subscribers once.',
    effect: 'update',
    input: { articleId: id('article') },
    output: Article.shape,
    run: (api, { articleId }) => api.post<ArticleDoc>(`/articles/${articleId}/publish`),
    summary: (a) => `Published article ${articleLine(a)}`,
  }),
  defineTool({
    name: 'reorder_articles',
    title: 'Reorder the articles of a space',
    description:
      'Sets the reading order of a space: the articles listed come first, in this order; the others follow in their previous order. One transaction: an id that is not an article of the space, or a repeated one, changes nothing (400).',
    effect: 'update',
    input: {
      spaceId: id('space'),
      articleIds: z.array(z.uuid()).min(1).max(10_000).describe('Ids of articles of the space, in reading order'),
    },
    output: {
      spaceId: id('space'),
      articleIds: z.array(z.uuid()).describe('The order sent'),
      renumbered: z.number().nullish().describe('Articles whose position changed'),
    },
    run: async (api, { spaceId, articleIds }) => {
      const answer = await api.post<{ renumbered?: number } | null>(`/spaces/${spaceId}/articles/reorder`, {
        articleIds,
      });
      return { spaceId, articleIds, renumbered: answer?.renumbered ?? null };
    },
    summary: (r) =>
      `Reordered space ${r.spaceId}: ${r.articleIds.length} article(s) first, ${r.renumbered ?? '?'} moved`,
  }),
  defineTool({
    name: 'list_article_versions',
    title: 'List the versions of an article',
    description:
      'Lists the version history of an article, newest first: creation, every title or content change and every restore wrote one, with its title and content, who (a member or an integration key), when and why.',
    effect: 'read',
    input: { articleId: id('article'), ...paging },
    output: pageOf(Version, 'Versions of this page'),
    run: (api, { articleId, ...query }) => api.get<Page<VersionDoc>>(`/articles/${articleId}/versions`, query),
    summary: (r) =>
      `${r.items.length} version(s):\n${r.items.map((v) => `- #${v.number ?? '?'} ${v.reason ?? ''} ${v.createdAt ?? ''} "${v.title ?? ''}" id ${v.id}`).join('\n')}`,
  }),
  defineTool({
    name: 'restore_article_version',
    title: 'Restore a version of an article',
    description:
      'Restores the title and content of an earlier version. History is never rewritten: the restore itself is written as a new version.',
    effect: 'update',
    idempotent: false,
    input: { articleId: id('article'), versionId: id('version to restore') },
    output: Article.shape,
    run: (api, { articleId, versionId }) =>
      api.post<ArticleDoc>(`/articles/${articleId}/versions/${versionId}/restore`),
    summary: (a) => `Restored article ${articleLine(a)}`,
  }),
  defineTool({
    name: 'search_articles',
    title: 'Search articles',
    description:
      'Full-text search over the titles and content of the articles of the organisation, best match first, with an excerpt around the matching words; web search syntax ("quoted phrase", OR, -excluded); a typo in a title still finds it.',
    effect: 'read',
    input: {
      query: z.string().min(1).max(200).describe('Words to look for'),
      spaceId: z.uuid().optional().describe('Only this space'),
      status: ArticleStatus.optional().describe('Only articles of this status'),
      limit: z.number().int().min(1).max(50).optional().describe('Hits (1-50, default 20)'),
    },
    output: {
      query: z.string().nullish().describe('The query as searched'),
      items: z.array(SearchHit).describe('Matching articles, best first'),
    },
    run: (api, { query, ...rest }) => api.get<Page<HitDoc>>('/search', { q: query, ...rest }),
    summary: (r) =>
      `${r.items.length} result(s):\n${r.items.map((h) => `- "${h.title ?? ''}" id ${h.id ?? '?'}${h.snippet ? `: ${h.snippet}` : ''}`).join('\n')}`,
  }),
];
