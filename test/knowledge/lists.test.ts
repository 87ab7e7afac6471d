import type { Response } from 'supertest';
import { addMember, createAccount, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { createArticle, createSpace } from '../support/knowledge';
import { startStack, type TestStack } from '../support/stack';

const P = '/api/knowledge/public';
const ids = (items: { id: string }[]) => items.map((x) => x.id);

/** Pages of the knowledge lists: every item once, in order, the filters and visibility kept across pages. */
describe('knowledge lists: pages, order and filters', () => {
  let stack: TestStack;
  let owner: Account;
  let reader: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
    reader = await addMember(stack, owner, 'member');
    // The organisation's members may read, not write: they see published articles only.
    const [role] = await stack.services.orm.em
      .fork()
      .getConnection()
      .execute(`select id, permissions from roles where tenant_id = ? and key = 'member'`, [owner.tenantId]);
    await stack.http
      .put(`/rbac/roles/${role.id}/permissions`)
      .set(owner.auth)
      .send({ permissions: (role.permissions as string[]).filter((p) => p !== 'knowledge.write') })
      .expect(200);
  });
  afterAll(() => stack?.close());

  /** Every page of a member list with `limit`, following nextCursor. */
  const walk = async (path: string, account: Account, limit: number) => {
    const all: { id: string }[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 50; i++) {
      const res: Response = await stack.http
        .get(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
        .set(account.auth);
      expect(res.status).toBe(200);
      all.push(...res.body.items);
      cursor = res.body.nextCursor;
      if (!cursor) return all;
      // Article pages carry their position (opaque); the other lists page by the last id.
      if (!path.includes('/articles')) expect(cursor).toBe(res.body.items[res.body.items.length - 1].id);
    }
    throw new Error('endless pages');
  };

  it('pages articles in reading order across equal sortOrders, with status, collection and visibility filters', async () => {
    const space = await createSpace(stack, owner);
    const col = (
      await stack.http
        .post(`/api/knowledge/spaces/${space.id}/collections`)
        .set(owner.auth)
        .send({ name: 'Guides' })
        .expect(201)
    ).body;
    const made: { id: string }[] = [];
    for (let i = 0; i < 7; i++)
      made.push(
        await createArticle(stack, owner, space.id, { title: `A${i}`, ...(i % 2 ? { collectionId: col.id } : {}) }),
      );
    // Ties: sortOrder 1 for a0, a3, a5; 0 for a6.
    for (const [i, sortOrder] of [
      [0, 1],
      [3, 1],
      [5, 1],
      [6, 0],
    ] as const)
      await stack.http.patch(`/api/knowledge/articles/${made[i].id}`).set(owner.auth).send({ sortOrder }).expect(200);
    for (const i of [1, 3, 6])
      await stack.http.post(`/api/knowledge/articles/${made[i].id}/publish`).set(owner.auth).expect(200);
    await stack.http.delete(`/api/knowledge/articles/${made[4].id}`).set(owner.auth).expect(204);

    const full = (await stack.http.get(`/api/knowledge/spaces/${space.id}/articles?limit=200`).set(owner.auth)).body
      .items as { id: string; sortOrder: number; status: string; content?: unknown }[];
    expect(full.some((a) => 'content' in a || 'contentMarkdown' in a)).toBe(false);
    const expected = full
      .slice()
      .sort((a, b) => a.sortOrder - b.sortOrder || (a.id < b.id ? -1 : 1))
      .map((a) => a.id);
    expect(ids(full)).toEqual(expected);
    expect(ids(full)).not.toContain(made[4].id);
    expect(full).toHaveLength(6);
    for (const limit of [1, 2, 4])
      expect(ids(await walk(`/api/knowledge/spaces/${space.id}/articles`, owner, limit))).toEqual(expected);

    const inCollection = expected.filter((id) => [1, 3, 5].some((i) => made[i].id === id));
    expect(ids(await walk(`/api/knowledge/spaces/${space.id}/articles?collectionId=${col.id}`, owner, 1))).toEqual(
      inCollection,
    );
    expect(ids(await walk(`/api/knowledge/spaces/${space.id}/articles?status=archived`, owner, 1))).toEqual([
      made[4].id,
    ]);
    const published = expected.filter((id) => [1, 3, 6].some((i) => made[i].id === id));
    expect(ids(await walk(`/api/knowledge/spaces/${space.id}/articles?status=published`, owner, 2))).toEqual(published);
    // A member who may only read sees published articles, whatever status is asked for.
    expect(ids(await walk(`/api/knowledge/spaces/${space.id}/articles?status=draft`, reader, 1))).toEqual(published);
    // A cursor is the position of the last row shown: a bare id is no cursor (400).
    expectFieldErrors(
      await stack.http.get(`/api/knowledge/spaces/${space.id}/articles?limit=2&cursor=${made[4].id}`).set(owner.auth),
      'cursor',
    );
    // Another organisation's space is a 404, as is an unknown one.
    const stranger = await createAccount(stack);
    expectProblem(
      await stack.http.get(`/api/knowledge/spaces/${space.id}/articles`).set(stranger.auth),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http.get(`/api/knowledge/spaces/${space.id}/collections`).set(stranger.auth),
      404,
      'not_found',
    );
    // The article read shows the content; a reader gets a draft as a 404.
    expect((await stack.http.get(`/api/knowledge/articles/${made[0].id}`).set(owner.auth)).body.contentMarkdown).toBe(
      '# Hello\n\nSome text.',
    );
    expectProblem(await stack.http.get(`/api/knowledge/articles/${made[0].id}`).set(reader.auth), 404, 'not_found');
    expect((await stack.http.get(`/api/knowledge/articles/${made[1].id}`).set(reader.auth)).body.status).toBe(
      'published',
    );
    // Paging goes on after the last row shown was deleted.
    const first = (
      await stack.http.get(`/api/knowledge/spaces/${space.id}/articles?limit=2`).set(owner.auth).expect(200)
    ).body;
    await stack.http.delete(`/api/knowledge/articles/${first.items[1].id}`).set(owner.auth).expect(204);
    const next = (
      await stack.http
        .get(`/api/knowledge/spaces/${space.id}/articles?limit=2&cursor=${first.nextCursor}`)
        .set(owner.auth)
        .expect(200)
    ).body;
    expect(ids(next.items)).toEqual(expected.slice(2, 4));
  });

  it('pages versions newest first and comments oldest first; spaces by mode', async () => {
    const space = await createSpace(stack, owner, { mode: 'blog' });
    const a = await createArticle(stack, owner, space.id, { contentMarkdown: 'v1' });
    for (const text of ['v2', 'v3', 'v4'])
      await stack.http
        .patch(`/api/knowledge/articles/${a.id}`)
        .set(owner.auth)
        .send({ contentMarkdown: text })
        .expect(200);
    const versions = (await walk(`/api/knowledge/articles/${a.id}/versions`, owner, 1)) as unknown as {
      number: number;
      contentMarkdown: string;
    }[];
    expect(versions.map((v) => [v.number, v.contentMarkdown])).toEqual([
      [4, 'v4'],
      [3, 'v3'],
      [2, 'v2'],
      [1, 'v1'],
    ]);
    // A member who may only read finds a draft's history and comments as hidden as the draft, and cannot comment on it.
    expectProblem(await stack.http.get(`/api/knowledge/articles/${a.id}/versions`).set(reader.auth), 404, 'not_found');
    expectProblem(await stack.http.get(`/api/knowledge/articles/${a.id}/comments`).set(reader.auth), 404, 'not_found');
    expectProblem(
      await stack.http.post(`/api/knowledge/articles/${a.id}/comments`).set(reader.auth).send({ body: 'early' }),
      404,
      'not_found',
    );
    await stack.http.post(`/api/knowledge/articles/${a.id}/publish`).set(owner.auth).expect(200);
    expect(
      (await stack.http.get(`/api/knowledge/articles/${a.id}/versions`).set(reader.auth).expect(200)).body.items,
    ).toHaveLength(4);
    const comments: unknown[] = [];
    for (const body of ['one', 'two', 'three'])
      comments.push(
        (await stack.http.post(`/api/knowledge/articles/${a.id}/comments`).set(reader.auth).send({ body }).expect(201))
          .body,
      );
    const listed = await walk(`/api/knowledge/articles/${a.id}/comments`, owner, 2);
    expect(listed).toEqual(comments);
    const blogs = await walk('/api/knowledge/spaces?mode=blog', owner, 1);
    expect(ids(blogs)).toEqual([space.id]);
  });

  it('pages the public directory and public article lists (reading order, blogs newest first)', async () => {
    const kb = await createSpace(stack, owner, { mode: 'public_kb' });
    const blog = await createSpace(stack, owner, { mode: 'blog' });
    const publish = async (spaceId: string, title: string, body: Record<string, unknown> = {}) => {
      const a = await createArticle(stack, owner, spaceId, { title, ...body });
      return (await stack.http.post(`/api/knowledge/articles/${a.id}/publish`).set(owner.auth).expect(200)).body;
    };
    // K2 ties with K0 at sortOrder 0 (then by creation), K1 is last.
    const k = [await publish(kb.id, 'K0'), await publish(kb.id, 'K1'), await publish(kb.id, 'K2', { sortOrder: 0 })];
    await createArticle(stack, owner, kb.id, { title: 'Draft' });
    const b = [await publish(blog.id, 'B0'), await publish(blog.id, 'B1'), await publish(blog.id, 'B2')];
    const pages = async (slug: string) => {
      const slugs: string[] = [];
      for (let page = 1; ; page++) {
        const res = await stack.http.get(`${P}/spaces/${slug}/articles?limit=2&page=${page}`).expect(200);
        slugs.push(...res.body.items.map((x: { slug: string }) => x.slug));
        if (!res.body.nextPage) return slugs;
        expect(res.body.nextPage).toBe(page + 1);
      }
    };
    expect(await pages(kb.slug as string)).toEqual([k[0].slug, k[2].slug, k[1].slug]);
    expect(await pages(blog.slug as string)).toEqual([b[2].slug, b[1].slug, b[0].slug]);
    const first = (await stack.http.get(`${P}/spaces/${blog.slug}/articles`).expect(200)).body.items[0];
    expect(first).toEqual({
      slug: b[2].slug,
      title: 'B2',
      kind: 'developer',
      excerpt: b[2].excerpt,
      publishedAt: b[2].publishedAt,
      updatedAt: b[2].updatedAt,
    });
    expect((await stack.http.get(`${P}/spaces/${kb.slug}/articles?page=3&limit=2`).expect(200)).body).toEqual({
      items: [],
      nextPage: null,
    });

    // The directory: public spaces only, every page once, a mode filter kept across pages.
    const directory: { slug: string; mode: string }[] = [];
    let cursor: string | null = null;
    do {
      const res: Response = await stack.http
        .get(`${P}/spaces?limit=1&mode=blog${cursor ? `&cursor=${cursor}` : ''}`)
        .expect(200);
      directory.push(...res.body.items);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(directory.every((s) => s.mode === 'blog')).toBe(true);
    expect(directory.map((s) => s.slug)).toContain(blog.slug);
    expect(directory.map((s) => s.slug)).not.toContain(kb.slug);
    expect((await stack.http.get(`${P}/spaces/${kb.slug}`).expect(200)).body).toEqual({
      slug: kb.slug,
      name: kb.name,
      mode: 'public_kb',
      description: null,
      language: 'english',
    });
  });
});
