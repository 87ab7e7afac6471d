import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ServiceError } from '../../mcp/api';
import { PRODUCTION_KNOWLEDGE_URL, readConfig } from '../../mcp/config';
import { MAX_BODY_BYTES } from '../../mcp/http';
import { MAX_MARKDOWN } from '../../mcp/schemas';
import { describeError } from '../../mcp/tools/define';
import { tools } from '../../mcp/server';
import { httpClient, runToExit, stdioClient } from './harness';

/** The server as a process, without a knowledge service behind it: start, configuration and its tool list. */
describe('knowledge MCP server: start and tool list', () => {
  const env = { KNOWLEDGE_API_KEY: 'psk_knowledge_not-a-real-key', KNOWLEDGE_API_URL: 'http://127.0.0.1:9' };
  let client: Client;
  beforeAll(async () => {
    client = (await stdioClient(env)).client;
  });
  afterAll(async () => {
    await client?.close();
  });

  it('exits at start without KNOWLEDGE_API_KEY, naming it', async () => {
    const { code, stderr } = await runToExit({ KNOWLEDGE_API_URL: 'http://127.0.0.1:9' });
    expect(code).toBe(2);
    expect(stderr).toContain('KNOWLEDGE_API_KEY is not set');
    expect((await runToExit({ KNOWLEDGE_API_KEY: 'k', KNOWLEDGE_API_URL: 'ftp://x' })).stderr).toContain(
      'KNOWLEDGE_API_URL',
    );
    // What an MCP client sees: the connection fails, and the server's stderr (which clients log) names the variable.
    await expect(stdioClient({ KNOWLEDGE_API_URL: 'http://127.0.0.1:9' })).rejects.toThrow(
      /server stderr: knowledge-mcp: KNOWLEDGE_API_KEY is not set/,
    );
  });

  it('defaults KNOWLEDGE_API_URL to the production address', () => {
    expect(readConfig({ KNOWLEDGE_API_KEY: 'k' }).apiUrl).toBe(PRODUCTION_KNOWLEDGE_URL);
    expect(
      readConfig({ KNOWLEDGE_API_KEY: 'k', KNOWLEDGE_API_URL: 'http://localhost:3000/' }, ['--port', '0']).apiUrl,
    ).toBe('http://localhost:3000');
  });

  it('lists at least 20 tools over stdio, each described, with input and output schemas and annotations', async () => {
    const listed = (await client.listTools()).tools;
    expect(listed.length).toBeGreaterThanOrEqual(20);
    expect(listed.map((t) => t.name).sort()).toEqual(tools.map((t) => t.name).sort());
    for (const tool of listed) {
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      // A field the service adds later must not make a client's validation of structuredContent fail.
      expect(tool.outputSchema?.additionalProperties).not.toBe(false);
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect([
          tool.name,
          name,
          (property as { description?: string }).description ?? (property as { enum?: unknown }).enum,
        ]).toEqual([tool.name, name, expect.anything()]);
      }
      const hints = tool.annotations!;
      expect(typeof hints.readOnlyHint).toBe('boolean');
      expect(typeof hints.destructiveHint).toBe('boolean');
      expect(typeof hints.idempotentHint).toBe('boolean');
    }
    const byName = new Map(listed.map((t) => [t.name, t.annotations!]));
    expect(byName.get('list_spaces')).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('create_space')).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(byName.get('delete_space')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('archive_article')).toMatchObject({ destructiveHint: true });
  });

  it('turns an unreachable service into a tool error, not a crash', async () => {
    const result = await client.callTool({ name: 'list_spaces', arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('could not be reached');
    expect((await client.listTools()).tools.length).toBe(tools.length);
  });

  it('answers the same tool list over Streamable HTTP', async () => {
    const viaStdio = (await client.listTools()).tools;
    const http = await httpClient(env);
    try {
      expect((await http.client.listTools()).tools).toEqual(viaStdio);
      const templates = (await http.client.listResourceTemplates()).resourceTemplates;
      expect(templates.map((t) => t.uriTemplate)).toEqual(['knowledge://article/{id}']);
      // A large article goes through the HTTP transport (the SDK's default body parser stops at 100 kB) to the service:
      // the longest Markdown the tool takes, in a 3-byte character, is a body of about 150 kB.
      const spaceId = '00000000-0000-4000-8000-000000000000';
      const big = await http.client.callTool({
        name: 'create_article',
        arguments: { spaceId, title: 'Big', contentMarkdown: '€'.repeat(MAX_MARKDOWN) },
      });
      expect(JSON.stringify(big.content)).toContain('could not be reached');
    } finally {
      await http.stop();
    }
  });

  it('answers a body that is not JSON, or too large, with a JSON-RPC error over Streamable HTTP, never a stack trace', async () => {
    const http = await httpClient(env);
    try {
      const post = (body: string) =>
        fetch(http.url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            'MCP-Protocol-Version': '2025-06-18',
          },
          body,
        });
      const seen = async (res: Response) => {
        const text = await res.text();
        let body: unknown = text.slice(0, 300);
        try {
          body = JSON.parse(text);
        } catch {
          // What the client got instead of JSON stays in the comparison.
        }
        return {
          status: res.status,
          type: res.headers.get('content-type'),
          leaks: /node_modules|\/mcp\/|SyntaxError|\bat /.test(text),
          body,
        };
      };
      expect(await seen(await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"'))).toEqual({
        status: 400,
        type: expect.stringMatching(/^application\/json/),
        leaks: false,
        body: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON' }, id: null },
      });
      const tooLarge = JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'create_article', arguments: { title: 'Huge', contentMarkdown: 'x'.repeat(MAX_BODY_BYTES) } },
      });
      expect(await seen(await post(tooLarge))).toEqual({
        status: 413,
        type: expect.stringMatching(/^application\/json/),
        leaks: false,
        body: {
          jsonrpc: '2.0',
          error: { code: -32000, message: `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes` },
          id: null,
        },
      });
      // The server goes on answering.
      expect((await http.client.listTools()).tools.length).toBe(tools.length);
    } finally {
      await http.stop();
    }
  });

  it('says "this key has scope read" when a write is refused for the scope, and names the problem otherwise', () => {
    const scope = new ServiceError(
      403,
      'api_key_scope_missing',
      'Forbidden',
      'This action needs a key with the scope write',
    );
    expect(describeError('create_space', 'create', scope)).toMatch(/^This key has scope read: create_space/);
    const conflict = new ServiceError(409, 'invalid_transition', 'Conflict', 'archived -> review is not allowed', [
      { field: 'status', message: 'no' },
    ]);
    expect(describeError('set_article_status', 'update', conflict)).toBe(
      'set_article_status failed: Conflict (409 invalid_transition): archived -> review is not allowed\n- status: no',
    );
  });
});
