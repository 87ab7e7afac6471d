#!/usr/bin/env node
/**
 * Knowledge MCP server: `npm run mcp` (stdio), `npm run mcp -- --port 3100` (Streamable HTTP on /mcp).
 * Configuration: mcp/config.ts. Logs go to stderr (stdout is the stdio transport's).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError, readConfig } from './config';
import { serveHttp } from './http';
import { apiFor, createKnowledgeServer, tools } from './server';

async function main(): Promise<void> {
  let config;
  try {
    config = readConfig(process.env, process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`knowledge-mcp: ${err.message}`);
    process.exit(2);
  }
  const api = apiFor(config);
  if (config.port !== null) {
    const server = await serveHttp(api, config.port, config.host, config.allowedHosts);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    console.error(
      `knowledge-mcp: ${tools.length} tools on http://${config.host}:${port}/mcp (Streamable HTTP) for ${config.apiUrl}`,
    );
    const stop = () => server.close(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    return;
  }
  const server = createKnowledgeServer(api);
  await server.connect(new StdioServerTransport());
  console.error(`knowledge-mcp: ${tools.length} tools on stdio for ${config.apiUrl}`);
}

main().catch((err) => {
  console.error('knowledge-mcp: failed to start:', err);
  process.exit(1);
});
