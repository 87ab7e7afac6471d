import { createAccount, type Account } from '../support/factories';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fakeOpenAI';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { createArticle, createSpace, publishedArticle } from '../support/knowledge';
import { startStack, type TestStack } from '../support/stack';

const P = '/api/knowledge/public';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * Who the anonymous knowledge surface serves (only organisations that are entitled to `knowledge` and not
 * suspended, as the booking storefront) and how its directory pages (by a public key, never an internal id).
 */
describe('knowledge public surface: access and directory paging', () => {
  let stack: TestStack;
  let ai: FakeOpenAI;
  let owner: Account;
  let admin: Account;
  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['See [1].'] });
    stack = await startStack({
      workers: false,
      env: {
        OPENAI_API_KEY: 'test-key',
        OPENAI_BASE_URL: ai.baseUrl,
        OPENAI_MODEL: 'fake-model',
        RATE_LIMIT_ANON_PER_MINUTE: '2000',
      },
    });
    owner = await createAccount(stack);
    admin = await createAccount(stack, { platformAdmin: true });
  });
  afterAll(async () => {
    await stack?.close();
    await ai?.close();
  });

  /** Every page of the directory (following nextCursor); the raw answers too. */
  async function directory(query: { limit?: number; mode?: string; cursor?: string } = {}): Promise<{
    slugs: string[];
    pages: { status: number; text: string; body: { items: { slug: string }[]; nextCursor: string | null } }[];
  }> {
    const pages = [];
    const slugs: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 500; i++) {
      const res = await stack.http.get(`${P}/spaces`).query({ ...query, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      pages.push(res);
      slugs.push(...res.body.items.map((s: { slug: string }) => s.slug));
      cursor = res.body.nextCursor;
      if (!cursor) return { slugs, pages };
    }
    throw new Error('the directory never ended');
  }

  /** A public knowledge base and a blog of `account`, each with a published article about Helm. */
  async function publicContent(account: Account, tag: string) {
    const kb = await publishedArticle(
      stack,
      account,
      { name: `KB ${tag}`, slug: `kb-${tag}`, mode: 'public_kb' },
      { title: 'Deploying with Helm', contentMarkdown: 'Deploy the agent with Helm charts.' },
    );
    const blog = await publishedArticle(
      stack,
      account,
      { name: `Blog ${tag}`, slug: `blog-${tag}`, mode: 'blog' },
      { title: 'Helm release notes', contentMarkdown: 'Helm charts are out.' },
    );
    return { kb, blog };
  }

  /** Every anonymous route of a space: status of each (and the qa answer's sources when it answered). */
  async function statuses(c: Awaited<ReturnType<typeof publicContent>>) {
    const { kb, blog } = c;
    return {
      space: (await stack.http.get(`${P}/spaces/${kb.space.slug}`)).status,
      articles: (await stack.http.get(`${P}/spaces/${kb.space.slug}/articles`)).status,
      article: (await stack.http.get(`${P}/spaces/${kb.space.slug}/articles/${kb.article.slug}`)).status,
      search: (await stack.http.get(`${P}/spaces/${kb.space.slug}/search`).query({ q: 'helm' })).status,
      blogArticle: (await stack.http.get(`${P}/spaces/${blog.space.slug}/articles/${blog.article.slug}`)).status,
      subscribe: (
        await stack.http
          .post(`${P}/spaces/${blog.space.slug}/subscribe`)
          .send({ email: `reader.${kb.space.slug}@example.test` })
      ).status,
      qa: (await stack.http.post(`${P}/spaces/${kb.space.slug}/qa`).send({ question: 'How do I deploy with Helm?' }))
        .status,
    };
  }
  const served = { space: 200, articles: 200, article: 200, search: 200, blogArticle: 200, subscribe: 202, qa: 200 };
  const gone = { space: 404, articles: 404, article: 404, search: 404, blogArticle: 404, subscribe: 404, qa: 404 };

  it("a suspended organisation's public spaces answer 404 on every route (qa without calling the AI) and leave the directory, until the suspension is lifted", async () => {
    const other = await createAccount(stack);
    const content = await publicContent(other, 'suspended-org');
    const control = await publicContent(owner, 'still-open');
    const mine = [content.kb.space.slug, content.blog.space.slug];
    expect(await statuses(content)).toEqual(served);
    expect((await directory({ limit: 200 })).slugs).toEqual(expect.arrayContaining(mine));

    expect(
      (
        await stack.http
          .post(`/admin/organizations/${other.tenantId}/suspend`)
          .set(admin.auth)
          .send({ reason: 'abuse' })
      ).status,
    ).toBe(200);
    // The member surface refuses the suspended organisation; the anonymous one answers as for an unknown space.
    expectProblem(
      await stack.http.get(`/api/knowledge/spaces/${content.kb.space.id}`).set(other.auth),
      403,
      'organization_suspended',
    );
    const asked = ai.requests.length;
    expect(await statuses(content)).toEqual(gone);
    expect(ai.requests.length).toBe(asked);
    expectProblem(
      await stack.http.get(`${P}/spaces/${content.kb.space.slug}/articles/${content.kb.article.slug}`),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http.post(`${P}/spaces/${content.kb.space.slug}/qa`).send({ question: 'Helm?' }),
      404,
      'not_found',
    );
    for (const query of [{ limit: 200 }, { limit: 1 }, { limit: 2, mode: 'blog' }, { limit: 200, mode: 'public_kb' }]) {
      const { slugs } = await directory(query);
      for (const slug of mine) expect(slugs).not.toContain(slug);
    }
    // Other organisations are not affected.
    expect(await statuses(control)).toEqual(served);
    expect((await directory({ limit: 200 })).slugs).toEqual(
      expect.arrayContaining([control.kb.space.slug, control.blog.space.slug]),
    );

    expect((await stack.http.post(`/admin/organizations/${other.tenantId}/unsuspend`).set(admin.auth)).status).toBe(
      200,
    );
    expect(await statuses(content)).toEqual(served);
    expect((await directory({ limit: 200 })).slugs).toEqual(expect.arrayContaining(mine));
  });

  it('an organisation whose tier no longer includes knowledge is served no more (404, out of the directory), and again once it does', async () => {
    const listed = await stack.http.get('/api/entitlements').set(admin.auth).expect(200);
    const enterprise = listed.body.items.find((t: { tier: string }) => t.tier === 'enterprise') as {
      modules: string[];
      limits: Record<string, number>;
    };
    expect(enterprise.modules).toContain('knowledge');
    const other = await createAccount(stack, { tier: 'enterprise' });
    const content = await publicContent(other, 'lost-module');
    const control = await createSpace(stack, owner, { name: 'Control', slug: 'blog-control-free', mode: 'blog' });
    const mine = [content.kb.space.slug, content.blog.space.slug];
    expect(await statuses(content)).toEqual(served);

    const setModules = (modules: string[]) =>
      stack.http
        .put('/api/entitlements/enterprise')
        .set(admin.auth)
        .send({ modules, limits: enterprise.limits })
        .expect(200);
    await setModules(enterprise.modules.filter((m) => m !== 'knowledge'));
    try {
      const asked = ai.requests.length;
      expect(await statuses(content)).toEqual(gone);
      expect(ai.requests.length).toBe(asked);
      // Not suspended, so the directory's SQL keeps these rows: they are left out by the entitlements, on every page.
      for (const query of [{ limit: 200 }, { limit: 1 }, { limit: 1, mode: 'blog' }]) {
        const { slugs } = await directory(query);
        for (const slug of mine) expect(slugs).not.toContain(slug);
        expect(slugs).toContain(control.slug);
      }
    } finally {
      await setModules(enterprise.modules);
    }
    expect(await statuses(content)).toEqual(served);
    expect((await directory({ limit: 200 })).slugs).toEqual(expect.arrayContaining(mine));
  });

  it('a long run of spaces the directory skips ends a page early with a cursor that goes on, never ending the directory before its last space', async () => {
    const listed = await stack.http.get('/api/entitlements').set(admin.auth).expect(200);
    const enterprise = listed.body.items.find((t: { tier: string }) => t.tier === 'enterprise') as {
      modules: string[];
      limits: Record<string, number>;
    };
    const hidden = await createAccount(stack, { tier: 'enterprise' });
    const open = await createAccount(stack);
    const first = await createSpace(stack, open, { name: 'Run start', slug: 'run-0000-open', mode: 'public_kb' });
    const last = await createSpace(stack, open, { name: 'Run end', slug: 'run-zzzz-open', mode: 'public_kb' });
    // More spaces of the organisation that will lose knowledge than a page reads in all its rounds.
    await stack.services.orm.em
      .fork()
      .getConnection()
      .execute(
        `insert into knowledge_spaces (id, tenant_id, created_at, name, slug, mode, language, updated_at)
         select gen_random_uuid(), ?, now(), 'Hidden ' || n, 'run-' || lpad(n::text, 4, '0'), 'public_kb', 'english', now() from generate_series(1, 3000) n`,
        [hidden.tenantId],
      );
    await stack.http
      .put('/api/entitlements/enterprise')
      .set(admin.auth)
      .send({ modules: enterprise.modules.filter((m) => m !== 'knowledge'), limits: enterprise.limits })
      .expect(200);
    try {
      const { slugs, pages } = await directory({ limit: 1, cursor: 'run' });
      expect(slugs.filter((s) => s.startsWith('run-'))).toEqual([first.slug, last.slug]);
      // Some page read only skipped spaces: it is empty, yet the directory goes on after it.
      expect(pages.some((p) => p.body.items.length === 0 && p.body.nextCursor !== null)).toBe(true);
    } finally {
      await stack.http
        .put('/api/entitlements/enterprise')
        .set(admin.auth)
        .send({ modules: enterprise.modules, limits: enterprise.limits })
        .expect(200);
      await stack.services.orm.em
        .fork()
        .getConnection()
        .execute(`delete from knowledge_spaces where tenant_id = ?`, [hidden.tenantId]);
    }
  });

  it('the directory pages by slug: every public space once, in slug order, with cursors that are slugs and never an internal id', async () => {
    const a = await createAccount(stack);
    const made = [];
    for (const [slug, mode] of [
      ['dir-echo', 'public_kb'],
      ['dir-alpha', 'blog'],
      ['dir-delta', 'public_kb'],
      ['dir-charlie', 'public_kb'],
      ['dir-bravo', 'blog'],
    ] as const) {
      made.push(await createSpace(stack, a, { name: `Space ${slug}`, slug, mode }));
    }
    const internal = await createSpace(stack, a, { name: 'Dir internal', slug: 'dir-internal', mode: 'internal' });
    await createArticle(stack, a, internal.id, { title: 'Private' });
    const ids = new Set([...made.map((s) => s.id), internal.id, a.tenantId, owner.tenantId]);

    const all = await directory({ limit: 200 });
    expect(all.pages).toHaveLength(1);
    for (const size of [1, 2, 3]) {
      const { slugs, pages } = await directory({ limit: size });
      expect(slugs).toEqual(all.slugs);
      for (const page of pages) {
        expect(page.body.items.length).toBeLessThanOrEqual(size);
        expect(page.text).not.toMatch(UUID);
        expect(ids.has(page.body.nextCursor as string)).toBe(false);
        // The cursor is the slug of the page's last space: public already.
        if (page.body.nextCursor) expect(page.body.nextCursor).toBe(page.body.items.at(-1)?.slug);
      }
    }
    expect(new Set(all.slugs).size).toBe(all.slugs.length);
    expect(all.slugs.filter((s) => s.startsWith('dir-'))).toEqual([
      'dir-alpha',
      'dir-bravo',
      'dir-charlie',
      'dir-delta',
      'dir-echo',
    ]);
    expect((await directory({ limit: 1, mode: 'blog' })).slugs.filter((s) => s.startsWith('dir-'))).toEqual([
      'dir-alpha',
      'dir-bravo',
    ]);

    // The audit's reproduction: two spaces, a page of one.
    const first = await stack.http.get(`${P}/spaces?limit=1`);
    expect(first.status).toBe(200);
    expect(first.body.nextCursor).toBe(first.body.items[0].slug);
    expect(ids.has(first.body.nextCursor)).toBe(false);
    expect(first.text).not.toMatch(UUID);

    // A space renamed (new slug) between two pages does not break the cursor handed out before.
    const cursor = (await stack.http.get(`${P}/spaces`).query({ limit: 1, cursor: 'dir-alpha' })).body
      .nextCursor as string;
    expect(cursor).toBe('dir-bravo');
    await stack.http.patch(`/api/knowledge/spaces/${made[4].id}`).set(a.auth).send({ slug: 'dir-zulu' }).expect(200);
    const next = await stack.http.get(`${P}/spaces`).query({ limit: 1, cursor });
    expect(next.body.items.map((s: { slug: string }) => s.slug)).toEqual(['dir-charlie']);
  });

  it('a forged or malformed cursor is a 400 or simply starts or ends the directory, never a 500', async () => {
    await createSpace(stack, owner, { name: 'Cursor probe', slug: 'cursor-probe', mode: 'public_kb' });
    for (const bad of ['NOT A SLUG', 'Upper', 'x'.repeat(81), "a' or 1=1 --", '%00', '../etc']) {
      expectFieldErrors(await stack.http.get(`${P}/spaces`).query({ cursor: bad }), 'cursor');
    }
    expectFieldErrors(await stack.http.get(`${P}/spaces?cursor=a&cursor=b`), 'cursor');
    expectFieldErrors(await stack.http.get(`${P}/spaces?cursor=`), 'cursor');
    // Well-formed but naming no space: the page after that position, or an empty last page.
    const fromUuid = await stack.http
      .get(`${P}/spaces`)
      .query({ cursor: '00000000-0000-0000-0000-000000000000', limit: 200 });
    expect(fromUuid.status).toBe(200);
    expect(fromUuid.body.items.map((s: { slug: string }) => s.slug)).toContain('cursor-probe');
    const past = await stack.http.get(`${P}/spaces`).query({ cursor: 'zzzz' });
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ items: [], nextCursor: null });
    const before = await stack.http.get(`${P}/spaces`).query({ cursor: '0', limit: 200 });
    expect(before.body.items.map((s: { slug: string }) => s.slug)).toContain('cursor-probe');
  });
});
