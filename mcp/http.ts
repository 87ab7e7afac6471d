import type { IncomingMessage, Server } from 'node:http';
import express from 'express';
import { hostHeaderValidation, localhostHostValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { KnowledgeApi } from './api';
import { createKnowledgeServer } from './server';

const methodNotAllowed = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless, POST /mcp' }, id: null };

/**
 * Streamable HTTP on POST /mcp, stateless: each request gets its own server and transport (no session to keep,
 * any number of instances behind a balancer). Bound to 127.0.0.1 by default, where the SDK's app also checks
 * the Host header (DNS rebinding): the service key is this process's, so whoever reaches the port uses it.
 */
export function serveHttp(api: KnowledgeApi, port: number, host: string, allowedHosts: string[] = []): Promise<Server> {
  const app = express();
  // DNS rebinding: on loopback only localhost names; elsewhere the names given (MCP_ALLOWED_HOSTS), if any.
  if (allowedHosts.length) app.use(hostHeaderValidation(allowedHosts));
  else if (['127.0.0.1', 'localhost', '::1'].includes(host)) app.use(localhostHostValidation());
  // The SDK's own app parses 100 kB at most; an article's Markdown may be 500,000 characters.
  app.use(express.json({ limit: '4mb' }));
  app.post('/mcp', async (req, res) => {
    const server = createKnowledgeServer(api);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      // The app's Express typings give req.auth another meaning (the member's JWT claims): the transport reads none.
      await transport.handleRequest(req as IncomingMessage, res, req.body);
    } catch (err) {
      console.error('knowledge-mcp: request failed:', err);
      if (!res.headersSent) res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null });
    }
  });
  app.get('/mcp', (_req, res) => void res.status(405).json(methodNotAllowed));
  app.delete('/mcp', (_req, res) => void res.status(405).json(methodNotAllowed));
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(server)));
  });
}
