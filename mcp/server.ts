import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { KnowledgeApi } from './api';
import type { McpConfig } from './config';
import { registerArticleResources } from './resources';
import { articleTools } from './tools/articles';
import { collectionTools } from './tools/collections';
import type { Tool } from './tools/define';
import { spaceTools } from './tools/spaces';
import { workflowTools } from './tools/workflow';

export const SERVER_NAME = 'platform-suite-knowledge';
export const SERVER_VERSION = '1.0.0';

/** Every tool of the server, in the order tools/list gives them. */
export const tools: Tool[] = [...spaceTools, ...collectionTools, ...articleTools, ...workflowTools];

export function apiFor(config: Pick<McpConfig, 'apiUrl' | 'apiKey' | 'timeoutMs'>): KnowledgeApi {
  return new KnowledgeApi({
    baseUrl: config.apiUrl,
    apiKey: config.apiKey,
    timeoutMs: config.timeoutMs,
    userAgent: `${SERVER_NAME}/${SERVER_VERSION}`,
  });
}

/** One MCP server (tools + article resources) over the knowledge integration surface. */
export function createKnowledgeServer(api: KnowledgeApi): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, title: 'Knowledge base', version: SERVER_VERSION },
    {
      instructions:
        "Tools over one organisation's knowledge base (spaces > collections > articles). Find ids with list_spaces, list_collections, " +
        'list_articles or search_articles. Write tools need a key with the scope write. Articles are also resources knowledge://article/{id}.',
    },
  );
  for (const tool of tools) tool.register(server, api);
  registerArticleResources(server, api);
  return server;
}
