import type { IncomingMessage, Server } from 'node:http';
import express, { type ErrorRequestHandler } from 'express';
import {
  hostHeaderValidation,
  localhostHostValidation,
} from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { KnowledgeApi } from './api';
import { createKnowledgeServer } from './server';

const methodNotAllowed = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Method not allowed: this server is stateless, POST /mcp' },
  id: null,
};

/** Largest request body, in bytes (the SDK transport's own default bound, DEFAULT_MAX_REQUEST_BODY_SIZE). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** What the body parser (body-parser, through express.json) throws: an http-errors error with a status and a type. */
interface HttpError extends Error {
  status?: number;
  statusCode?: number;
  type?: string;
}

/**
 * Every error that reaches Express (a body that is not JSON, too large, in an unsupported encoding or charset, an
 * undecodable path) becomes a JSON-RPC error with `id: null`, as the SDK's transport answers the same cases: 400
 * -32700 for a body that is not JSON, 413 / 415 / other 4xx with -32000, anything else 500 -32603. Never
 * Express's default HTML page, which carries the stack trace and the server's paths outside production.
 */
const jsonRpcErrors: ErrorRequestHandler = (err: HttpError, _req, res, next) => {
  if (res.headersSent) return next(err);
  const status = err.status ?? err.statusCode ?? 500;
  let code = -32000;
  let message: string;
  if (err.type === 'entity.parse.failed') [code, message] = [-32700, 'Parse error: Invalid JSON'];
  else if (status === 413) message = `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`;
  else if (status === 415) message = `Unsupported Media Type: ${err.message}`;
  else if (status >= 400 && status < 500) message = `Bad Request: ${err.message}`;
  else {
    console.error('knowledge-mcp: request failed:', err);
    [code, message] = [-32603, 'Internal server error'];
  }
  res.status(status >= 400 && status < 600 ? status : 500).json({ jsonrpc: '2.0', error: { code, message }, id: null });
};

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
  // The SDK's own app parses 100 kB at most; an article's Markdown may be 49,000 characters (MAX_MARKDOWN), up to 4 bytes each in UTF-8, beside an editor document.
  app.use(express.json({ limit: MAX_BODY_BYTES }));
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
      if (!res.headersSent)
        res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null });
    }
  });
  app.get('/mcp', (_req, res) => void res.status(405).json(methodNotAllowed));
  app.delete('/mcp', (_req, res) => void res.status(405).json(methodNotAllowed));
  app.use(jsonRpcErrors);
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(server)));
  });
}
