import { KnowledgeArticle } from '../../entities/knowledge/article';
import { addMember, createAccount, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { createArticle, createSpace, richDoc } from '../support/knowledge';
import { startStack, type TestStack } from '../support/stack';

describe('knowledge member surface', () => {
  let stack: TestStack;
  let owner: Account;
  let other: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
    other = await createAccount(stack);
  });
  afterAll(() => stack?.close());

  it('creates, reads, edits and lists spaces; slugs are unique across organisations', async () => {
    const space = await createSpace(stack, owner, { name: 'Team Wiki', slug: 'team-wiki-unique' });
    expect(space).toMatchObject({ name: 'Team Wiki', slug: 'team-wiki-unique', mode: 'internal', language: 'english' });
    expectProblem(
      await stack.http
        .post('/api/knowledge/spaces')
        .set(other.auth)
        .send({ name: 'Theirs', mode: 'blog', slug: 'team-wiki-unique' }),
      409,
      'slug_taken',
    );
    // Derived slugs never collide either.
    const derived = await createSpace(stack, other, { name: 'Team Wiki', mode: 'blog' });
    expect(derived.slug).not.toBe('team-wiki-unique');
    expect((await stack.http.get(`/api/knowledge/spaces/${space.id}`).set(owner.auth)).body.name).toBe('Team Wiki');
    const edited = await stack.http
      .patch(`/api/knowledge/spaces/${space.id}`)
      .set(owner.auth)
      .send({ name: 'Wiki', description: 'Ours', language: 'french' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Wiki', description: 'Ours', language: 'french' });
    const list = await stack.http.get('/api/knowledge/spaces').set(owner.auth);
    expect(list.body.items.map((s: { id: string }) => s.id)).toContain(space.id);
    expect(list.body.items.map((s: { id: string }) => s.id)).not.toContain(derived.id);
  });

  it("isolates organisations: another tenant's space, article, collection are 404", async () => {
    const space = await createSpace(stack, owner);
    const article = await createArticle(stack, owner, space.id);
    const collection = (
      await stack.http.post(`/api/knowledge/spaces/${space.id}/collections`).set(owner.auth).send({ name: 'Guides' })
    ).body;
    expectProblem(await stack.http.get(`/api/knowledge/spaces/${space.id}`).set(other.auth), 404, 'not_found');
    expectProblem(await stack.http.get(`/api/knowledge/articles/${article.id}`).set(other.auth), 404, 'not_found');
    expectProblem(
      await stack.http.patch(`/api/knowledge/collections/${collection.id}`).set(other.auth).send({ name: 'x' }),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http
        .post(`/api/knowledge/spaces/${space.id}/articles`)
        .set(other.auth)
        .send({ title: 'x', kind: 'developer', contentMarkdown: 'x' }),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http.get(`/api/knowledge/articles/${article.id}/versions`).set(other.auth),
      404,
      'not_found',
    );
  });

  it('creates rich and developer articles, checks rich documents, and keeps the kind (API and database)', async () => {
    const space = await createSpace(stack, owner);
    const rich = await createArticle(stack, owner, space.id, {
      title: 'Rich one',
      kind: 'rich',
      contentMarkdown: undefined,
      content: richDoc('Hello world'),
    });
    expect(rich).toMatchObject({
      kind: 'rich',
      status: 'draft',
      slug: 'rich-one',
      content: richDoc('Hello world'),
      contentMarkdown: null,
      version: 1,
      excerpt: 'Hello world',
    });
    const dev = await createArticle(stack, owner, space.id, { title: 'Rich one' });
    expect(dev).toMatchObject({ kind: 'developer', slug: 'rich-one-2', content: null });
    // Default kind on the member surface is rich.
    const dflt = await stack.http
      .post(`/api/knowledge/spaces/${space.id}/articles`)
      .set(owner.auth)
      .send({ title: 'Default' });
    expect(dflt.body.kind).toBe('rich');

    expectFieldErrors(
      await stack.http
        .post(`/api/knowledge/spaces/${space.id}/articles`)
        .set(owner.auth)
        .send({ title: 'x', kind: 'rich', content: { type: 'paragraph' } }),
      'content',
    );
    expectFieldErrors(
      await stack.http
        .post(`/api/knowledge/spaces/${space.id}/articles`)
        .set(owner.auth)
        .send({ title: 'x', kind: 'rich', content: { type: 'doc', content: [{ type: 'text' }] } }),
      'content.content[0].text',
    );
    expectFieldErrors(
      await stack.http
        .post(`/api/knowledge/spaces/${space.id}/articles`)
        .set(owner.auth)
        .send({ title: 'x', kind: 'developer' }),
      'contentMarkdown',
    );
    expectFieldErrors(
      await stack.http
        .post(`/api/knowledge/spaces/${space.id}/articles`)
        .set(owner.auth)
        .send({ title: 'x', kind: 'developer', contentMarkdown: 'a', content: richDoc('b') }),
      'content',
    );
    expectProblem(
      await stack.http
        .post(`/api/knowledge/spaces/${space.id}/articles`)
        .set(owner.auth)
        .send({ title: 'x', kind: 'developer', contentMarkdown: 'a', slug: 'rich-one' }),
      409,
      'slug_taken',
    );

    expectProblem(
      await stack.http.patch(`/api/knowledge/articles/${rich.id}`).set(owner.auth).send({ kind: 'developer' }),
      409,
      'kind_immutable',
    );
    expectFieldErrors(
      await stack.http.patch(`/api/knowledge/articles/${rich.id}`).set(owner.auth).send({ contentMarkdown: 'x' }),
      'contentMarkdown',
    );
    // The database refuses it whoever asks.
    await expect(
      stack.services.orm.em
        .fork()
        .nativeUpdate(KnowledgeArticle, { id: rich.id }, { kind: 'developer' }, { filters: false }),
    ).rejects.toThrow(/immutable/);
    expect((await stack.http.get(`/api/knowledge/articles/${rich.id}`).set(owner.auth)).body.kind).toBe('rich');
  });

  it('follows the transition table: allowed moves pass, refused ones are 409 invalid_transition', async () => {
    const space = await createSpace(stack, owner);
    const a = await createArticle(stack, owner, space.id);
    const move = (status: string) =>
      stack.http.post(`/api/knowledge/articles/${a.id}/status`).set(owner.auth).send({ status });
    expectProblem(await move('draft'), 409, 'invalid_transition');
    expect((await move('review')).body.status).toBe('review');
    expect((await move('draft')).body.status).toBe('draft');
    const published = await stack.http.post(`/api/knowledge/articles/${a.id}/publish`).set(owner.auth);
    expect(published.body).toMatchObject({ status: 'published' });
    expect(published.body.publishedAt).toEqual(expect.any(String));
    // Publishing a published article changes nothing and answers it.
    const again = await stack.http.post(`/api/knowledge/articles/${a.id}/publish`).set(owner.auth);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(published.body);
    expectProblem(await move('published'), 409, 'invalid_transition');
    const archive = async () =>
      expect((await stack.http.delete(`/api/knowledge/articles/${a.id}`).set(owner.auth)).status).toBe(204);
    await archive();
    expect((await stack.http.get(`/api/knowledge/articles/${a.id}`).set(owner.auth)).body.status).toBe('archived');
    await archive();
    // Out of the archive: published again at once (its first publication date kept), or to review or draft.
    expect((await stack.http.post(`/api/knowledge/articles/${a.id}/publish`).set(owner.auth)).body).toMatchObject({
      status: 'published',
      publishedAt: published.body.publishedAt,
    });
    await archive();
    expect((await move('review')).body.status).toBe('review');
    await archive();
    expect((await move('published')).body.status).toBe('published');
    await archive();
    expectProblem(await move('archived'), 409, 'invalid_transition');
    expect((await move('draft')).body.status).toBe('draft');
    expectFieldErrors(await move('deleted'), 'status');
  });

  it('appends articles and collections at the end of the order even past the largest sortOrder', async () => {
    const space = await createSpace(stack, owner);
    const last = await createArticle(stack, owner, space.id, { title: 'Last', sortOrder: 2_147_483_647 });
    const next = await createArticle(stack, owner, space.id, { title: 'Next' });
    expect(next.sortOrder).toBe(2_147_483_647);
    const order = (await stack.http.get(`/api/knowledge/spaces/${space.id}/articles`).set(owner.auth)).body.items.map(
      (x: { id: string }) => x.id,
    );
    expect(order).toEqual([last.id, next.id]);
    const collections = `/api/knowledge/spaces/${space.id}/collections`;
    await stack.http.post(collections).set(owner.auth).send({ name: 'End', sortOrder: 2_147_483_647 }).expect(201);
    expect(
      (await stack.http.post(collections).set(owner.auth).send({ name: 'After' }).expect(201)).body.sortOrder,
    ).toBe(2_147_483_647);
    expect((await stack.http.get(collections).set(owner.auth)).body.items.map((c: { name: string }) => c.name)).toEqual(
      ['End', 'After'],
    );
    expectFieldErrors(
      await stack.http
        .post(`/api/knowledge/spaces/${space.id}/articles`)
        .set(owner.auth)
        .send({ title: 'x', kind: 'developer', contentMarkdown: 'x', sortOrder: 2_147_483_648 }),
      'sortOrder',
    );
  });

  it('writes a version per title or content change; restore adds a version and keeps history', async () => {
    const space = await createSpace(stack, owner);
    const a = await createArticle(stack, owner, space.id, { title: 'First title', contentMarkdown: 'one' });
    await stack.http
      .patch(`/api/knowledge/articles/${a.id}`)
      .set(owner.auth)
      .send({ contentMarkdown: 'two' })
      .expect(200);
    await stack.http
      .patch(`/api/knowledge/articles/${a.id}`)
      .set(owner.auth)
      .send({ title: 'Second title' })
      .expect(200);
    // No change, no version.
    const same = await stack.http
      .patch(`/api/knowledge/articles/${a.id}`)
      .set(owner.auth)
      .send({ title: 'Second title', sortOrder: 5 });
    expect(same.body.version).toBe(3);
    const versions = (await stack.http.get(`/api/knowledge/articles/${a.id}/versions`).set(owner.auth)).body.items;
    expect(versions.map((v: { number: number }) => v.number)).toEqual([3, 2, 1]);
    expect(versions[2]).toMatchObject({
      title: 'First title',
      contentMarkdown: 'one',
      reason: 'created',
      authorId: owner.user.id,
      apiKeyId: null,
    });
    const restored = await stack.http
      .post(`/api/knowledge/articles/${a.id}/versions/${versions[2].id}/restore`)
      .set(owner.auth);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ title: 'First title', contentMarkdown: 'one', version: 4 });
    const after = (await stack.http.get(`/api/knowledge/articles/${a.id}/versions`).set(owner.auth)).body.items;
    expect(after.map((v: { number: number }) => v.number)).toEqual([4, 3, 2, 1]);
    expect(after[0]).toMatchObject({ reason: 'restored', restoredFrom: 1 });
    expect(after[1]).toMatchObject({ title: 'Second title', contentMarkdown: 'two' });
    // Another article's version is a 404.
    const b = await createArticle(stack, owner, space.id);
    expectProblem(
      await stack.http.post(`/api/knowledge/articles/${b.id}/versions/${versions[2].id}/restore`).set(owner.auth),
      404,
      'not_found',
    );
  });

  it('reorders a space in one go; foreign or repeated ids change nothing', async () => {
    const space = await createSpace(stack, owner);
    const [a, b, c] = [
      await createArticle(stack, owner, space.id, { title: 'A' }),
      await createArticle(stack, owner, space.id, { title: 'B' }),
      await createArticle(stack, owner, space.id, { title: 'C' }),
    ];
    const order = async () =>
      (await stack.http.get(`/api/knowledge/spaces/${space.id}/articles`).set(owner.auth)).body.items.map(
        (x: { title: string }) => x.title,
      );
    expect(await order()).toEqual(['A', 'B', 'C']);
    const res = await stack.http
      .post(`/api/knowledge/spaces/${space.id}/articles/reorder`)
      .set(owner.auth)
      .send({ articleIds: [c.id, a.id] });
    expect(res.status).toBe(200);
    expect(await order()).toEqual(['C', 'A', 'B']);
    const foreignSpace = await createSpace(stack, owner);
    const foreign = await createArticle(stack, owner, foreignSpace.id);
    expectFieldErrors(
      await stack.http
        .post(`/api/knowledge/spaces/${space.id}/articles/reorder`)
        .set(owner.auth)
        .send({ articleIds: [b.id, foreign.id] }),
      'articleIds',
    );
    expectFieldErrors(
      await stack.http
        .post(`/api/knowledge/spaces/${space.id}/articles/reorder`)
        .set(owner.auth)
        .send({ articleIds: [b.id, b.id] }),
      'articleIds',
    );
    expectFieldErrors(
      await stack.http
        .post(`/api/knowledge/spaces/${space.id}/articles/reorder`)
        .set(owner.auth)
        .send({ articleIds: ['nope'] }),
      'articleIds',
    );
    expect(await order()).toEqual(['C', 'A', 'B']);
  });

  it('collections group articles; deleting one keeps its articles', async () => {
    const space = await createSpace(stack, owner);
    const col = (
      await stack.http
        .post(`/api/knowledge/spaces/${space.id}/collections`)
        .set(owner.auth)
        .send({ name: 'Guides' })
        .expect(201)
    ).body;
    const a = await createArticle(stack, owner, space.id, { collectionId: col.id });
    const list = await stack.http
      .get(`/api/knowledge/spaces/${space.id}/articles?collectionId=${col.id}`)
      .set(owner.auth);
    expect(list.body.items.map((x: { id: string }) => x.id)).toEqual([a.id]);
    const otherSpace = await createSpace(stack, owner);
    expectFieldErrors(
      await stack.http
        .post(`/api/knowledge/spaces/${otherSpace.id}/articles`)
        .set(owner.auth)
        .send({ title: 'x', kind: 'developer', contentMarkdown: 'x', collectionId: col.id }),
      'collectionId',
    );
    expect(
      (await stack.http.get(`/api/knowledge/spaces/${space.id}/collections`).set(owner.auth)).body.items,
    ).toHaveLength(1);
    await stack.http.delete(`/api/knowledge/collections/${col.id}`).set(owner.auth).expect(204);
    expect((await stack.http.get(`/api/knowledge/articles/${a.id}`).set(owner.auth)).body.collectionId).toBeNull();
  });

  it('comments: anyone who reads may comment; only the author edits or deletes', async () => {
    const space = await createSpace(stack, owner);
    const a = await createArticle(stack, owner, space.id);
    const member = await addMember(stack, owner, 'member');
    const mine = (
      await stack.http
        .post(`/api/knowledge/articles/${a.id}/comments`)
        .set(member.auth)
        .send({ body: 'Nice' })
        .expect(201)
    ).body;
    expect(mine).toMatchObject({ authorId: member.user.id, body: 'Nice', editedAt: null });
    expectProblem(
      await stack.http.patch(`/api/knowledge/comments/${mine.id}`).set(owner.auth).send({ body: 'Hacked' }),
      403,
      'not_comment_author',
    );
    expectProblem(
      await stack.http.delete(`/api/knowledge/comments/${mine.id}`).set(owner.auth),
      403,
      'not_comment_author',
    );
    const edited = await stack.http
      .patch(`/api/knowledge/comments/${mine.id}`)
      .set(member.auth)
      .send({ body: 'Very nice' });
    expect(edited.body.editedAt).toEqual(expect.any(String));
    expect((await stack.http.get(`/api/knowledge/articles/${a.id}/comments`).set(owner.auth)).body.items).toHaveLength(
      1,
    );
    expectProblem(await stack.http.get(`/api/knowledge/articles/${a.id}/comments`).set(other.auth), 404, 'not_found');
    await stack.http.delete(`/api/knowledge/comments/${mine.id}`).set(member.auth).expect(204);
    expectFieldErrors(
      await stack.http.post(`/api/knowledge/articles/${a.id}/comments`).set(member.auth).send({ body: '   ' }),
      'body',
    );
  });

  it('hides the comment of an article unpublished since from its author who may only read', async () => {
    const space = await createSpace(stack, owner);
    const a = await createArticle(stack, owner, space.id);
    await stack.http.post(`/api/knowledge/articles/${a.id}/publish`).set(owner.auth).expect(200);
    await stack.http
      .post('/rbac/roles')
      .set(owner.auth)
      .send({ key: 'kb-commenter', name: 'KB commenter', permissions: ['knowledge.read'] })
      .expect(201);
    const reader = await addMember(stack, owner, 'kb-commenter');
    const comment = (
      await stack.http
        .post(`/api/knowledge/articles/${a.id}/comments`)
        .set(reader.auth)
        .send({ body: 'Read it' })
        .expect(201)
    ).body;
    await stack.http
      .post(`/api/knowledge/articles/${a.id}/status`)
      .set(owner.auth)
      .send({ status: 'draft' })
      .expect(200);
    expectProblem(
      await stack.http.patch(`/api/knowledge/comments/${comment.id}`).set(reader.auth).send({ body: 'Changed' }),
      404,
      'not_found',
    );
    await stack.http.post(`/api/knowledge/articles/${a.id}/publish`).set(owner.auth).expect(200);
    expect(
      (await stack.http.get(`/api/knowledge/articles/${a.id}/comments`).set(reader.auth)).body.items[0],
    ).toMatchObject({ body: 'Read it', editedAt: null });
  });

  it('deleting a space deletes its content and frees its slug', async () => {
    const space = await createSpace(stack, owner, { slug: 'to-delete-slug' });
    const a = await createArticle(stack, owner, space.id);
    await stack.http.delete(`/api/knowledge/spaces/${space.id}`).set(owner.auth).expect(204);
    expectProblem(await stack.http.get(`/api/knowledge/articles/${a.id}`).set(owner.auth), 404, 'not_found');
    await createSpace(stack, other, { slug: 'to-delete-slug' });
  });

  it('refuses bad input with problem+json, never a 500', async () => {
    const space = await createSpace(stack, owner);
    expectFieldErrors(
      await stack.http.post('/api/knowledge/spaces').set(owner.auth).send({ name: 'x', mode: 'secret' }),
      'mode',
    );
    expectFieldErrors(
      await stack.http
        .post('/api/knowledge/spaces')
        .set(owner.auth)
        .send({ name: 'x', mode: 'blog', slug: 'Not A Slug' }),
      'slug',
    );
    expectFieldErrors(await stack.http.post('/api/knowledge/spaces').set(owner.auth).send({ mode: 'blog' }), 'name');
    expectFieldErrors(await stack.http.get('/api/knowledge/spaces/not-a-uuid').set(owner.auth), 'id');
    expectFieldErrors(
      await stack.http.get(`/api/knowledge/spaces/${space.id}/articles?status=gone`).set(owner.auth),
      'status',
    );
    expectFieldErrors(
      await stack.http
        .post(`/api/knowledge/spaces/${space.id}/articles`)
        .set(owner.auth)
        .send({ title: 'x', kind: 'rich', content: { type: 'doc', content: [{ type: 'paragraph', bogus: 1 }] } }),
      'content.content[0].bogus',
    );
    expectFieldErrors(await stack.http.get('/api/knowledge/search?q=').set(owner.auth), 'q');
  });
});
