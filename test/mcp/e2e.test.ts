import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { tools } from '../../mcp/server';
import { createAccount, type Account } from '../support/factories';
import { createArticle, createSpace } from '../support/knowledge';
import { startStack, type TestStack } from '../support/stack';
import { httpClient, stdioClient, textOf } from './harness';

type Doc = Record<string, unknown> & { id: string };
type Page = { items: Doc[] };

/**
 * The SDK's Client spawns the MCP server over stdio against a running app with real keys of the knowledge
 * integration surface, and calls every tool end to end.
 */
describe('knowledge MCP server end to end', () => {
  let stack: TestStack;
  let owner: Account;
  let writer: Client;
  let reader: Client;
  const called = new Set<string>();

  const newKey = async (scope: 'read' | 'write') => {
    const res = await stack.http
      .post('/api/knowledge/keys')
      .set(owner.auth)
      .send({ label: `MCP ${scope}`, scope });
    expect(res.status).toBe(201);
    return res.body.key as string;
  };
  const start = async (key: string) =>
    (await stdioClient({ KNOWLEDGE_API_KEY: key, KNOWLEDGE_API_URL: stack.url })).client;

  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
    [writer, reader] = await Promise.all([start(await newKey('write')), start(await newKey('read'))]);
    // The client learns the output schemas from the tool list, and from then on validates every structuredContent.
    await Promise.all([writer.listTools(), reader.listTools()]);
  }, 120_000);
  afterAll(async () => {
    await writer?.close();
    await reader?.close();
    await stack?.close();
  });

  /** Calls a tool that must succeed; returns its structured content (the text content says the same). */
  async function call<T = Doc>(name: string, args: Record<string, unknown>, client = writer): Promise<T> {
    called.add(name);
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    if (result.isError) throw new Error(textOf(result));
    expect(result.structuredContent).toBeDefined();
    expect(textOf(result)).toContain(JSON.stringify(result.structuredContent, null, 2));
    return result.structuredContent as T;
  }

  it('calls every tool end to end', async () => {
    const slug = `mcp-${Date.now().toString(36)}`;
    expect((await call<Page>('list_spaces', {})).items).toEqual([]);
    const space = await call('create_space', {
      name: 'MCP handbook',
      mode: 'public_kb',
      slug,
      description: 'Written through MCP',
    });
    expect(space).toMatchObject({ name: 'MCP handbook', mode: 'public_kb', slug });
    expect(await call('get_space', { spaceId: space.id })).toMatchObject({ id: space.id, slug });
    expect(await call('update_space', { spaceId: space.id, name: 'MCP guide' })).toMatchObject({
      id: space.id,
      name: 'MCP guide',
    });
    expect((await call<Page>('list_spaces', { mode: 'public_kb' })).items.map((s) => s.id)).toEqual([space.id]);

    const collection = await call('create_collection', { spaceId: space.id, name: 'Setup' });
    expect(
      await call('update_collection', { collectionId: collection.id, description: 'Getting started' }),
    ).toMatchObject({ id: collection.id, description: 'Getting started' });
    expect((await call<Page>('list_collections', { spaceId: space.id })).items.map((c) => c.id)).toEqual([
      collection.id,
    ]);

    // No kind on the integration surface: a developer article (Markdown).
    const first = await call('create_article', {
      spaceId: space.id,
      collectionId: collection.id,
      title: 'Installing the gateway',
      contentMarkdown: '# Install\n\nRun the installer.',
    });
    expect(first).toMatchObject({ kind: 'developer', status: 'draft', collectionId: collection.id });
    const second = await call('create_article', {
      spaceId: space.id,
      title: 'Rotating keys',
      contentMarkdown: 'Rotate the **keys** every quarter.',
    });
    expect(await call('get_article', { articleId: first.id })).toMatchObject({
      id: first.id,
      contentMarkdown: '# Install\n\nRun the installer.',
    });
    expect(
      await call('update_article', { articleId: first.id, contentMarkdown: '# Install\n\nRun the new installer.' }),
    ).toMatchObject({ contentMarkdown: '# Install\n\nRun the new installer.' });

    const versions = (await call<Page>('list_article_versions', { articleId: first.id })).items;
    expect(versions.length).toBe(2);
    const original = versions[versions.length - 1];
    expect(await call('restore_article_version', { articleId: first.id, versionId: original.id })).toMatchObject({
      contentMarkdown: '# Install\n\nRun the installer.',
    });
    expect((await call<Page>('list_article_versions', { articleId: first.id })).items.length).toBe(3);

    await call('reorder_articles', { spaceId: space.id, articleIds: [second.id, first.id] });
    expect((await call<Page>('list_articles', { spaceId: space.id })).items.map((a) => a.id)).toEqual([
      second.id,
      first.id,
    ]);

    expect(await call('set_article_status', { articleId: first.id, status: 'review' })).toMatchObject({
      status: 'review',
    });
    expect(await call('publish_article', { articleId: first.id })).toMatchObject({ status: 'published' });
    const hits = (await call<Page>('search_articles', { query: 'installer', spaceId: space.id })).items;
    expect(hits[0]).toMatchObject({ id: first.id });

    expect(await call('archive_article', { articleId: second.id })).toMatchObject({ id: second.id, archived: true });
    expect(
      (await call<Page>('list_articles', { spaceId: space.id, status: 'archived' })).items.map((a) => a.id),
    ).toEqual([second.id]);
    expect(await call('delete_collection', { collectionId: collection.id })).toEqual({
      id: collection.id,
      deleted: true,
    });
    expect(await call('delete_space', { spaceId: space.id })).toEqual({ id: space.id, deleted: true });
    expect((await call<Page>('list_spaces', {})).items).toEqual([]);

    expect([...called].sort()).toEqual(tools.map((t) => t.name).sort());
  }, 120_000);

  it('refuses a write tool with a read key ("this key has scope read"), and reads with it', async () => {
    const result = (await reader.callTool({
      name: 'create_space',
      arguments: { name: 'Nope', mode: 'internal' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toMatch(/^This key has scope read: create_space .*scope write/);
    expect((await call<Page>('list_spaces', {}, reader)).items).toEqual([]);
  });

  it("turns the service's problems into tool errors with their title and code", async () => {
    const missing = (await writer.callTool({
      name: 'get_article',
      arguments: { articleId: '00000000-0000-4000-8000-000000000000' },
    })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^get_article failed: Not Found \(404 not_found\)/);
    const space = await call('create_space', { name: 'Conflicts', mode: 'internal' });
    const taken = (await writer.callTool({
      name: 'create_space',
      arguments: { name: 'Again', mode: 'internal', slug: space.slug },
    })) as CallToolResult;
    expect(textOf(taken)).toMatch(/Conflict \(409 slug_taken\)/);
    const article = await call('create_article', { spaceId: space.id, title: 'Draft', contentMarkdown: 'x' });
    const refused = (await writer.callTool({
      name: 'set_article_status',
      arguments: { articleId: article.id, status: 'draft' },
    })) as CallToolResult;
    expect(textOf(refused)).toMatch(/409 invalid_transition/);
    // Input the schema refuses never reaches the service.
    const invalid = (await writer.callTool({
      name: 'get_space',
      arguments: { spaceId: 'not-a-uuid' },
    })) as CallToolResult;
    expect(invalid.isError).toBe(true);
  });

  it('serves the same tools over Streamable HTTP, against the service', async () => {
    const http = await httpClient({ KNOWLEDGE_API_KEY: await newKey('write'), KNOWLEDGE_API_URL: stack.url });
    try {
      expect((await http.client.listTools()).tools).toEqual((await writer.listTools()).tools);
      const result = (await http.client.callTool({
        name: 'create_space',
        arguments: { name: 'Over HTTP', mode: 'blog' },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ name: 'Over HTTP', mode: 'blog' });
    } finally {
      await http.stop();
    }
  });

  it('exposes articles as knowledge://article/{id} resources', async () => {
    const space = await call('create_space', { name: 'Resources', mode: 'internal' });
    const article = await call('create_article', {
      spaceId: space.id,
      title: 'Readable',
      contentMarkdown: 'Body *text*.',
    });
    const uri = `knowledge://article/${article.id}`;
    expect((await reader.listResources()).resources.map((r) => r.uri)).toContain(uri);
    const read = await reader.readResource({ uri });
    expect(read.contents).toEqual([{ uri, mimeType: 'text/markdown', text: '# Readable\n\nBody *text*.' }]);
    const doc = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Rich body' }] }] };
    const rich = await call('create_article', { spaceId: space.id, title: 'Rich one', kind: 'rich', content: doc });
    expect(rich).toMatchObject({ kind: 'rich', content: doc, contentMarkdown: null });
    const richRead = await reader.readResource({ uri: `knowledge://article/${rich.id}` });
    expect(richRead.contents[0]).toMatchObject({ mimeType: 'application/json' });
    expect(JSON.parse((richRead.contents[0] as { text: string }).text)).toMatchObject({ id: rich.id, content: doc });
  });

  it("answers an address naming no article with the protocol's Resource not found (-32002) and the uri", async () => {
    const stranger = await createAccount(stack);
    const theirs = await createArticle(stack, stranger, (await createSpace(stack, stranger)).id);
    for (const uri of [
      'knowledge://article/00000000-0000-4000-8000-000000000000',
      `knowledge://article/${theirs.id}`,
      'knowledge://article/not-an-id',
    ]) {
      await expect(reader.readResource({ uri })).rejects.toMatchObject({
        code: -32002,
        message: expect.stringContaining('Resource not found'),
        data: { uri },
      });
    }
  });
});
