import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_MARKDOWN as SERVICE_MAX_MARKDOWN } from '../../api/knowledge/dtos';
import { MAX_MARKDOWN } from '../../mcp/schemas';
import { createAccount, type Account } from '../support/factories';
import { knowledgeKey } from '../support/knowledge';
import { startStack, type TestStack } from '../support/stack';
import { stdioClient, textOf } from './harness';

/**
 * The MCP tools advertise the service's own bound on Markdown (mcp/ repeats the number, importing nothing of the
 * app): an assistant that writes within the advertised schema is never refused by the service (regression of the
 * audit test/audit-kb/mcp.test.ts, where the tools advertised 500,000 characters and the service took 49,000).
 */
describe('MCP content limits', () => {
  let stack: TestStack;
  let owner: Account;
  let client: Client;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
    client = (
      await stdioClient({ KNOWLEDGE_API_KEY: await knowledgeKey(stack, owner, 'write'), KNOWLEDGE_API_URL: stack.url })
    ).client;
    await client.listTools();
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await stack?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  it('mcp/ and the service bound Markdown with the same number', () => {
    expect(MAX_MARKDOWN).toBe(SERVICE_MAX_MARKDOWN);
  });

  it("create_article and update_article advertise the service's bound, in the schema and in words", async () => {
    const { tools } = await client.listTools();
    for (const name of ['create_article', 'update_article']) {
      const property = (
        tools.find((t) => t.name === name)!.inputSchema.properties as Record<
          string,
          { maxLength?: number; description?: string }
        >
      ).contentMarkdown;
      expect(property.maxLength).toBe(SERVICE_MAX_MARKDOWN);
      expect(property.description).toContain(SERVICE_MAX_MARKDOWN.toLocaleString('en'));
    }
  });

  it('Markdown of the advertised length is written; one character more is refused by the tool before the service', async () => {
    const space = await call('create_space', { name: 'Long docs', mode: 'internal' });
    expect(space.isError).toBeFalsy();
    const spaceId = (space.structuredContent as { id: string }).id;
    const longest = `# Reference\n\n${'x'.repeat(SERVICE_MAX_MARKDOWN - 13)}`;
    expect(longest).toHaveLength(SERVICE_MAX_MARKDOWN);
    const created = await call('create_article', { spaceId, title: 'Full API reference', contentMarkdown: longest });
    expect(created.isError ? textOf(created) : 'ok').toBe('ok');
    const articleId = (created.structuredContent as { id: string }).id;
    const updated = await call('update_article', { articleId, contentMarkdown: `${longest.slice(0, -1)}y` });
    expect(updated.isError ? textOf(updated) : 'ok').toBe('ok');

    for (const [name, args] of [
      ['create_article', { spaceId, title: 'Too long' }],
      ['update_article', { articleId }],
    ] as const) {
      const refused = await call(name, { ...args, contentMarkdown: `${longest}z` }).catch(
        (err: Error) => ({ isError: true, content: [{ type: 'text', text: err.message }] }) as CallToolResult,
      );
      expect(refused.isError).toBe(true);
      // The tool's input schema refuses it: the service is never called.
      expect(textOf(refused)).toMatch(
        new RegExp(`Input validation error.*${name}.*<=${SERVICE_MAX_MARKDOWN} characters at contentMarkdown`),
      );
    }
  });
});
