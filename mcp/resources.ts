import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, type ReadResourceResult, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { ServiceError, type KnowledgeApi, type Page } from './api';
import type { ArticleDoc } from './tools/articles';

/** How many articles resources/list names at most (the first page of each space): the tools page through the rest. */
export const RESOURCE_LIST_LIMIT = 200;

export const articleUri = (id: string) => `knowledge://article/${id}`;

/** The MCP specification's "Resource not found" (server/resources, Error Handling); the SDK has no constant for it. */
export const RESOURCE_NOT_FOUND = -32002;
const resourceNotFound = (uri: string) => new McpError(RESOURCE_NOT_FOUND, 'Resource not found', { uri });

/** A developer article reads as its Markdown under its title; a rich one as its JSON document. */
export function articleContents(uri: string, article: ArticleDoc): ReadResourceResult['contents'] {
  const markdown = typeof article.contentMarkdown === 'string' ? article.contentMarkdown : null;
  return [
    markdown !== null
      ? { uri, mimeType: 'text/markdown', text: `# ${article.title}\n\n${markdown}` }
      : { uri, mimeType: 'application/json', text: JSON.stringify(article, null, 2) },
  ];
}

async function listArticles(api: KnowledgeApi): Promise<Resource[]> {
  const spaces = await api.get<Page<{ id: string; name: string }>>('/spaces', { limit: 50 });
  const found: Resource[] = [];
  for (const space of spaces.items) {
    if (found.length >= RESOURCE_LIST_LIMIT) break;
    const articles = await api.get<Page<ArticleDoc>>(`/spaces/${space.id}/articles`, {
      limit: Math.min(200, RESOURCE_LIST_LIMIT - found.length),
    });
    for (const a of articles.items) {
      found.push({
        uri: articleUri(a.id),
        name: a.title,
        title: a.title,
        description: `${space.name} · ${a.status ?? ''} · ${a.kind ?? ''}`,
        mimeType: a.kind === 'rich' ? 'application/json' : 'text/markdown',
      });
    }
  }
  return found;
}

/** knowledge://article/{id}: every article of the key's organisation as an MCP resource. */
export function registerArticleResources(server: McpServer, api: KnowledgeApi): void {
  server.registerResource(
    'article',
    new ResourceTemplate('knowledge://article/{id}', { list: async () => ({ resources: await listArticles(api) }) }),
    {
      title: 'Knowledge article',
      description:
        'An article of the knowledge base: developer articles as Markdown (under their title), rich articles as their JSON document. The list names the first articles of each space.',
    },
    async (uri, { id }) => {
      const articleId = Array.isArray(id) ? id[0] : id;
      // An address naming no article (not a uuid, unknown, another organisation's: the service answers 404) is the
      // protocol's not-found error with the uri, not an internal error.
      if (!/^[0-9a-f-]{36}$/i.test(articleId ?? '')) throw resourceNotFound(uri.href);
      try {
        return { contents: articleContents(uri.href, await api.get<ArticleDoc>(`/articles/${articleId}`)) };
      } catch (err) {
        if (err instanceof ServiceError && err.status === 404) throw resourceNotFound(uri.href);
        throw err;
      }
    },
  );
}
