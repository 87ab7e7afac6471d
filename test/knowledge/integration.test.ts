import { Plan } from '../../entities/billing/plan';
import { createAccount, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { createArticle, createSpace, knowledgeKey } from '../support/knowledge';
import { startStack, type TestStack } from '../support/stack';

const P = '/api/public/knowledge';

describe('knowledge integration surface (/api/public/knowledge)', () => {
  let stack: TestStack;
  let owner: Account;
  let stranger: Account;
  let readKey: string;
  let writeKey: string;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
    stranger = await createAccount(stack);
    readKey = await knowledgeKey(stack, owner, 'read');
    writeKey = await knowledgeKey(stack, owner, 'write');
  });
  afterAll(() => stack?.close());

  const as = (key: string) => ({ 'X-Server-API-Key': key });

  it('mirrors the member surface with a write key: spaces, collections, articles (developer by default), status, reorder', async () => {
    const space = await stack.http.post(`${P}/spaces`).set(as(writeKey)).send({ name: 'API docs', mode: 'public_kb' });
    expect(space.status).toBe(201);
    const sid = space.body.id;
    const col = await stack.http.post(`${P}/spaces/${sid}/collections`).set(as(writeKey)).send({ name: 'Reference' });
    expect(col.status).toBe(201);
    const article = await stack.http
      .post(`${P}/spaces/${sid}/articles`)
      .set(as(writeKey))
      .send({ title: 'Auth', collectionId: col.body.id, contentMarkdown: '# Auth\n\nUse a key.' });
    expect(article.status).toBe(201);
    expect(article.body).toMatchObject({ kind: 'developer', status: 'draft', collectionId: col.body.id });
    const second = await stack.http
      .post(`${P}/spaces/${sid}/articles`)
      .set(as(writeKey))
      .send({ title: 'Errors', contentMarkdown: 'x' });
    // A rich article can still be asked for.
    const rich = await stack.http
      .post(`${P}/spaces/${sid}/articles`)
      .set(as(writeKey))
      .send({ title: 'Rich', kind: 'rich' });
    expect(rich.body.kind).toBe('rich');
    await stack.http
      .post(`${P}/spaces/${sid}/articles/reorder`)
      .set(as(writeKey))
      .send({ articleIds: [second.body.id] })
      .expect(200);
    expect(
      (await stack.http.post(`${P}/articles/${article.body.id}/status`).set(as(writeKey)).send({ status: 'review' }))
        .body.status,
    ).toBe('review');
    expect((await stack.http.post(`${P}/articles/${article.body.id}/publish`).set(as(writeKey))).body.status).toBe(
      'published',
    );
    // Publishing again answers the article unchanged.
    expect((await stack.http.post(`${P}/articles/${article.body.id}/publish`).set(as(writeKey))).body).toMatchObject({
      status: 'published',
      version: 1,
    });
    expect(
      (await stack.http.patch(`${P}/articles/${article.body.id}`).set(as(writeKey)).send({ contentMarkdown: 'v2' }))
        .body.version,
    ).toBe(2);
    const versions = await stack.http.get(`${P}/articles/${article.body.id}/versions`).set(as(readKey));
    expect(versions.body.items[0]).toMatchObject({ number: 2, authorId: null, apiKeyId: expect.any(String) });
    expectProblem(
      await stack.http.patch(`${P}/articles/${article.body.id}`).set(as(writeKey)).send({ kind: 'rich' }),
      409,
      'kind_immutable',
    );

    // Reads with the read key.
    expect(
      (await stack.http.get(`${P}/spaces`).set(as(readKey))).body.items.map((s: { id: string }) => s.id),
    ).toContain(sid);
    expect((await stack.http.get(`${P}/spaces/${sid}`).set(as(readKey))).body.name).toBe('API docs');
    expect((await stack.http.get(`${P}/spaces/${sid}/collections`).set(as(readKey))).body.items).toHaveLength(1);
    expect(
      (await stack.http.get(`${P}/spaces/${sid}/articles`).set(as(readKey))).body.items.map(
        (a: { title: string }) => a.title,
      ),
    ).toEqual(['Errors', 'Auth', 'Rich']);
    expect((await stack.http.get(`${P}/articles/${article.body.id}`).set(as(readKey))).body.contentMarkdown).toBe('v2');
    expect((await stack.http.get(`${P}/search?q=errors`).set(as(readKey))).body.items[0].id).toBe(second.body.id);

    await stack.http.patch(`${P}/spaces/${sid}`).set(as(writeKey)).send({ description: 'Docs' }).expect(200);
    await stack.http.patch(`${P}/collections/${col.body.id}`).set(as(writeKey)).send({ name: 'Ref' }).expect(200);
    await stack.http.delete(`${P}/articles/${rich.body.id}`).set(as(writeKey)).expect(204);
    await stack.http.delete(`${P}/collections/${col.body.id}`).set(as(writeKey)).expect(204);
    await stack.http.delete(`${P}/spaces/${sid}`).set(as(writeKey)).expect(204);
  });

  it('refuses every mutation to a read key (403 api_key_scope_missing), and every route without a key (401)', async () => {
    const space = await createSpace(stack, owner);
    const article = await createArticle(stack, owner, space.id);
    const col = (
      await stack.http.post(`/api/knowledge/spaces/${space.id}/collections`).set(owner.auth).send({ name: 'C' })
    ).body;
    const versions = (await stack.http.get(`/api/knowledge/articles/${article.id}/versions`).set(owner.auth)).body
      .items;
    const mutations: [string, string, object][] = [
      ['post', '/spaces', { name: 'x', mode: 'internal' }],
      ['post', `/spaces/${space.id}/collections`, { name: 'x' }],
      ['post', `/spaces/${space.id}/articles`, { title: 'x', contentMarkdown: 'x' }],
      ['post', `/spaces/${space.id}/articles/reorder`, { articleIds: [article.id] }],
      ['post', `/articles/${article.id}/status`, { status: 'review' }],
      ['post', `/articles/${article.id}/publish`, {}],
      ['post', `/articles/${article.id}/versions/${versions[0].id}/restore`, {}],
      ['patch', `/spaces/${space.id}`, { name: 'x' }],
      ['patch', `/collections/${col.id}`, { name: 'x' }],
      ['patch', `/articles/${article.id}`, { title: 'x' }],
      ['delete', `/spaces/${space.id}`, {}],
      ['delete', `/collections/${col.id}`, {}],
      ['delete', `/articles/${article.id}`, {}],
    ];
    for (const [method, path, body] of mutations) {
      const call = (key?: string) => {
        const req = stack.http[method as 'post'](`${P}${path}`);
        if (key) req.set(as(key));
        return method === 'delete' ? req : req.send(body);
      };
      expectProblem(await call(readKey), 403, 'api_key_scope_missing');
      expectProblem(await call(), 401, 'api_key_invalid');
    }
    // Nothing changed.
    expect((await stack.http.get(`/api/knowledge/articles/${article.id}`).set(owner.auth)).body).toMatchObject({
      title: 'An article',
      status: 'draft',
      version: 1,
    });
    expectProblem(await stack.http.get(`${P}/spaces`), 401, 'api_key_invalid');
  });

  it("sees only the key's organisation (404 for another's)", async () => {
    const theirs = await createSpace(stack, stranger);
    const article = await createArticle(stack, stranger, theirs.id);
    expectProblem(await stack.http.get(`${P}/spaces/${theirs.id}`).set(as(readKey)), 404, 'not_found');
    expectProblem(await stack.http.get(`${P}/articles/${article.id}`).set(as(readKey)), 404, 'not_found');
    expectProblem(
      await stack.http.patch(`${P}/articles/${article.id}`).set(as(writeKey)).send({ title: 'x' }),
      404,
      'not_found',
    );
    expect(
      (await stack.http.get(`${P}/spaces`).set(as(readKey))).body.items.map((s: { id: string }) => s.id),
    ).not.toContain(theirs.id);
  });

  it('still checks that the organisation is entitled to knowledge', async () => {
    const em = stack.services.orm.em.fork();
    const free = await em.findOneOrFail(Plan, { tier: 'free' });
    const entitlements = free.entitlements;
    try {
      await em.nativeUpdate(
        Plan,
        { tier: 'free' },
        { entitlements: { ...entitlements, modules: entitlements.modules.filter((m) => m !== 'knowledge') } },
      );
      await stack.services.entitlements.invalidateAll();
      expectProblem(await stack.http.get(`${P}/spaces`).set(as(readKey)), 403, 'module_not_entitled');
      expectProblem(await stack.http.get('/api/knowledge/spaces').set(owner.auth), 403, 'module_not_entitled');
    } finally {
      await em.nativeUpdate(Plan, { tier: 'free' }, { entitlements });
      await stack.services.entitlements.invalidateAll();
    }
    expect((await stack.http.get(`${P}/spaces`).set(as(readKey))).status).toBe(200);
  });

  it('validates input as the member surface does', async () => {
    expectFieldErrors(await stack.http.post(`${P}/spaces`).set(as(writeKey)).send({ name: 'x' }), 'mode');
    const space = await createSpace(stack, owner);
    expectFieldErrors(
      await stack.http.post(`${P}/spaces/${space.id}/articles`).set(as(writeKey)).send({ title: 'No markdown' }),
      'contentMarkdown',
    );
    expectFieldErrors(await stack.http.get(`${P}/articles/nope`).set(as(readKey)), 'id');
  });
});
