import { recordSearchMiss } from '../../domain/knowledge/recordSearchMiss';
import { statsKeys } from '../../domain/knowledge/store/stats';
import { flushKnowledgeStats } from '../../domain/knowledge/flushStats';
import { knowledgeStatsProcessor } from '../../workers/knowledge/knowledge';
import { addMember, createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { createArticle, createSpace, publishedArticle, richDoc } from '../support/knowledge';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fakeOpenAI';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';
import { spaceViewsCounted } from './views';

describe('knowledge search, analytics and AI', () => {
  let stack: TestStack;
  let ai: FakeOpenAI;
  let owner: Account;
  let other: Account;
  let spaceId: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['Use the ', 'agent [1].'] });
    stack = await startStack({
      workers: false,
      env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: ai.baseUrl, OPENAI_MODEL: 'fake-model' },
    });
    owner = await createAccount(stack);
    other = await createAccount(stack);
    // A known corpus.
    const space = await createSpace(stack, owner, { name: 'Docs', mode: 'public_kb' });
    spaceId = space.id;
    const corpus: [string, string][] = [
      [
        'Kubernetes deployment',
        'Deploy the service on a Kubernetes cluster with Helm charts. Kubernetes pods restart automatically.',
      ],
      ['Billing overview', 'Invoices are sent monthly. Kubernetes is not involved.'],
      ['Password reset', 'Reset your password from the sign-in page.'],
      ['Backups', 'Nightly backups of the database are kept thirty days.'],
    ];
    for (const [title, text] of corpus)
      ids[title] = (await createArticle(stack, owner, space.id, { title, contentMarkdown: text })).id;
    ids.rich = (
      await createArticle(stack, owner, space.id, {
        title: 'Onboarding',
        kind: 'rich',
        contentMarkdown: undefined,
        content: richDoc('Welcome aboard, read the handbook'),
      })
    ).id;
    await stack.http
      .post(`/api/knowledge/articles/${ids['Kubernetes deployment']}/publish`)
      .set(owner.auth)
      .expect(200);
    // Another organisation's article on the same subject.
    const theirs = await createSpace(stack, other);
    await createArticle(stack, other, theirs.id, {
      title: 'Kubernetes secrets',
      contentMarkdown: 'Kubernetes kubernetes kubernetes.',
    });
  });
  afterAll(async () => {
    await stack?.close();
    await ai?.close();
  });

  const search = (account: Account, q: string, extra: Record<string, string> = {}) =>
    stack.http
      .get('/api/knowledge/search')
      .set(account.auth)
      .query({ q, ...extra });

  it('ranks the expected article first, with a highlighted snippet, within the organisation only', async () => {
    const res = await search(owner, 'kubernetes');
    expect(res.status).toBe(200);
    const titles = res.body.items.map((h: { title: string }) => h.title);
    expect(titles[0]).toBe('Kubernetes deployment');
    expect(titles).toContain('Billing overview');
    expect(titles).not.toContain('Kubernetes secrets');
    expect(res.body.items[0].snippet).toMatch(/<mark>Kubernetes<\/mark>/i);
    // Stemming: "backup" finds "backups"; rich documents are flattened.
    expect((await search(owner, 'backup')).body.items[0].title).toBe('Backups');
    expect((await search(owner, 'handbook')).body.items.map((h: { id: string }) => h.id)).toEqual([ids.rich]);
  });

  it('finds a title despite a typo (pg_trgm)', async () => {
    const res = await search(owner, 'pasword resett');
    expect(res.body.items[0]).toMatchObject({ title: 'Password reset' });
    const kube = await search(owner, 'kuberntes');
    expect(kube.body.items[0]).toMatchObject({ title: 'Kubernetes deployment', fuzzy: true });
  });

  it('snippets a long body around its first match: ts_headline gets a window, whole words only', async () => {
    const filler = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
    const words = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => filler[(from + i) % filler.length]).join(' ');
    // The match ~15,000 characters in, far past the window's size.
    const body = `${words(2000, 0)} Quasarfield calibration steps. ${words(2000, 3)}`;
    const article = await createArticle(stack, owner, spaceId, { title: 'Instrument notes', contentMarkdown: body });
    const [hit] = (await search(owner, 'quasarfield')).body.items;
    expect(hit).toMatchObject({ id: article.id, fuzzy: false });
    expect(hit.snippet).toContain('<mark>Quasarfield</mark> calibration');
    expect(hit.snippet.length).toBeLessThan(600);
    // The window's edges never show a cut word.
    const shown = hit.snippet
      .replace(/<\/?mark>/g, '')
      .replace(/[.…]/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
    expect(
      shown.filter((w: string) => !filler.includes(w) && !['Quasarfield', 'calibration', 'steps'].includes(w)),
    ).toEqual([]);
    // A body without the word where it can be found (a title match) still gets a snippet, from its start.
    const titled = await createArticle(stack, owner, spaceId, {
      title: 'Nebulark overview',
      contentMarkdown: words(2000, 1),
    });
    const [byTitle] = (await search(owner, 'nebulark')).body.items;
    expect(byTitle.id).toBe(titled.id);
    expect(byTitle.snippet).toBe(words(12, 1)); // MinWords
  });

  it("searches a new space's language at once (the languages in scope are kept under the search version)", async () => {
    const titles = async (q: string) => (await search(owner, q)).body.items.map((h: { title: string }) => h.title);
    expect(await titles('Katzen')).toEqual([]);
    // German stems "Katzen" and "Katze" alike; English does not.
    const german = await createSpace(stack, owner, { name: 'Handbuch', language: 'german' });
    await createArticle(stack, owner, german.id, { title: 'Die Katze', contentMarkdown: 'Eine Katze im Haus.' });
    expect(await titles('Katzen')).toEqual(['Die Katze']);
  });

  it('never answers from the cache after a write: a new, renamed or archived article is seen at once', async () => {
    const titles = async (q: string) => (await search(owner, q)).body.items.map((h: { title: string }) => h.title);
    expect(await titles('zephyrwind')).toEqual([]);
    const article = await createArticle(stack, owner, spaceId, {
      title: 'Zephyrwind notes',
      contentMarkdown: 'Plain text.',
    });
    expect(await titles('zephyrwind')).toEqual(['Zephyrwind notes']);
    await stack.http
      .patch(`/api/knowledge/articles/${article.id}`)
      .set(owner.auth)
      .send({ title: 'Mistralwind notes' })
      .expect(200);
    expect(await titles('zephyrwind')).toEqual([]);
    expect(await titles('mistralwind')).toEqual(['Mistralwind notes']);
    await stack.http.delete(`/api/knowledge/articles/${article.id}`).set(owner.auth).expect(204);
    expect(await titles('mistralwind')).toEqual([]);
    expect(
      (await search(owner, 'mistralwind', { status: 'archived' })).body.items.map((h: { id: string }) => h.id),
    ).toEqual([article.id]);
    // Another organisation's write does not reach this one's answers, and theirs never include ours.
    expect((await search(other, 'mistralwind', { status: 'archived' })).body.items).toEqual([]);
  });

  it('respects permissions: readers without knowledge.write find published articles only', async () => {
    const em = stack.services.orm.em.fork();
    const reader = await addMember(stack, owner, 'member');
    // Take knowledge.write from the member role for this check.
    const role = await em
      .getConnection()
      .execute(`select id, permissions from roles where tenant_id = ? and key = 'member'`, [owner.tenantId]);
    const perms = (role[0].permissions as string[]).filter((p) => p !== 'knowledge.write');
    await stack.http
      .put(`/rbac/roles/${role[0].id}/permissions`)
      .set(owner.auth)
      .send({ permissions: perms })
      .expect(200);
    const titles = (await search(reader, 'kubernetes')).body.items.map((h: { title: string }) => h.title);
    expect(titles).toEqual(['Kubernetes deployment']);
    expectProblem(
      await stack.http.get(`/api/knowledge/articles/${ids['Billing overview']}`).set(reader.auth),
      404,
      'not_found',
    );
    expect(
      (await stack.http.get(`/api/knowledge/articles/${ids['Kubernetes deployment']}`).set(reader.auth)).status,
    ).toBe(200);
  });

  it('counts views and searches without result without a database write per view, flushed by the job', async () => {
    const { space, article } = await publishedArticle(stack, owner, {}, { title: 'Counted', contentMarkdown: 'x' });
    for (let i = 0; i < 3; i++)
      await stack.http
        .get(`/api/knowledge/public/spaces/${space.slug}/articles/${article.slug}`)
        .set('User-Agent', `reader-${i % 2}`)
        .expect(200);
    await stack.http.get(`/api/knowledge/public/spaces/${space.slug}/search`).query({ q: 'zzzz nothing' }).expect(200);
    await stack.http
      .get('/api/knowledge/search')
      .set(owner.auth)
      .query({ q: 'qqqq nothing', spaceId: space.id })
      .expect(200);
    await eventually(async () => (await spaceViewsCounted(stack, owner.tenantId, space.id)) === 3, {
      what: 'three views counted',
    });
    const before = await stack.http.get(`/api/knowledge/spaces/${space.id}/analytics`).set(owner.auth);
    expect(before.body.views).toBe(0);
    expect(await flushKnowledgeStats(stack.services)).toBeGreaterThan(0);
    const after = await stack.http.get(`/api/knowledge/spaces/${space.id}/analytics`).set(owner.auth);
    expect(after.body).toMatchObject({
      views: 3,
      uniqueReaders: 2,
      topArticles: [{ articleId: article.id, title: 'Counted', views: 3, readers: 2 }],
    });
    expect(after.body.searchesWithoutResult.map((m: { query: string }) => m.query).sort()).toEqual([
      'qqqq nothing',
      'zzzz nothing',
    ]);
    expectProblem(
      await stack.http.get(`/api/knowledge/spaces/${space.id}/analytics`).set(other.auth),
      404,
      'not_found',
    );
  });

  it("refuses a search of another organisation's space (404) and counts nothing against it; counts stay per organisation", async () => {
    const theirs = await createSpace(stack, other, { name: 'Theirs' });
    expectProblem(await search(owner, 'nothing here at all', { spaceId: theirs.id }), 404, 'not_found');
    await search(other, 'nothing here at all', { spaceId: theirs.id }).expect(200);
    const counted = await stack.services.redis.hkeys(statsKeys(stack.services).misses);
    expect(counted.filter((f) => f.startsWith(`${owner.tenantId}|${theirs.id}|`))).toEqual([]);
    // Even a count recorded under another organisation for that space stays apart from its own.
    await recordSearchMiss(stack.services, owner.tenantId, theirs.id, 'nothing here at all');
    await flushKnowledgeStats(stack.services);
    const stats = await stack.http.get(`/api/knowledge/spaces/${theirs.id}/analytics`).set(other.auth).expect(200);
    expect(stats.body.searchesWithoutResult).toEqual([{ query: 'nothing here at all', count: 1 }]);
  });

  it('keeps the counts in Redis when writing them fails, and writes them once on the next run', async () => {
    const { space, article } = await publishedArticle(stack, owner, {}, { title: 'Kept', contentMarkdown: 'x' });
    await stack.http.get(`/api/knowledge/public/spaces/${space.slug}/articles/${article.slug}`).expect(200);
    await stack.http
      .get('/api/knowledge/search')
      .set(owner.auth)
      .query({ q: 'kept nowhere', spaceId: space.id })
      .expect(200);
    await eventually(async () => (await spaceViewsCounted(stack, owner.tenantId, space.id)) === 1, {
      what: 'the view counted',
    });
    // The owner alters the table (the app's role may not).
    const db = (await stack.asOwner()).em.getConnection();
    await db.execute(`alter table knowledge_search_misses add constraint flush_fails check (count < 0) not valid`);
    try {
      await expect(flushKnowledgeStats(stack.services)).rejects.toThrow();
    } finally {
      await db.execute(`alter table knowledge_search_misses drop constraint flush_fails`);
    }
    expect((await stack.http.get(`/api/knowledge/spaces/${space.id}/analytics`).set(owner.auth)).body.views).toBe(0);
    expect(await flushKnowledgeStats(stack.services)).toBeGreaterThan(0);
    expect(await flushKnowledgeStats(stack.services)).toBe(0);
    const stats = await stack.http.get(`/api/knowledge/spaces/${space.id}/analytics`).set(owner.auth).expect(200);
    expect(stats.body).toMatchObject({ views: 1, searchesWithoutResult: [{ query: 'kept nowhere', count: 1 }] });
  });

  it('counts a view and a search once when a flush committed but could not drop its counts from Redis', async () => {
    const { space, article } = await publishedArticle(
      stack,
      owner,
      {},
      { title: 'Counted once', contentMarkdown: 'x' },
    );
    for (let i = 0; i < 3; i++)
      await stack.http
        .get(`/api/knowledge/public/spaces/${space.slug}/articles/${article.slug}`)
        .set('User-Agent', `once-${i}`)
        .expect(200);
    await stack.http
      .get('/api/knowledge/search')
      .set(owner.auth)
      .query({ q: 'once nowhere', spaceId: space.id })
      .expect(200);
    await eventually(async () => (await spaceViewsCounted(stack, owner.tenantId, space.id)) === 3, {
      what: 'three views counted',
    });
    // The rows commit, then Redis does not answer the delete of the counts set aside (or the process dies there).
    const redis = stack.services.redis;
    const del = redis.del.bind(redis);
    const failing = jest
      .spyOn(redis, 'del')
      .mockImplementation(((...keys: string[]) =>
        keys.some((k) => String(k).endsWith(':flushing'))
          ? Promise.reject(new Error('Connection is closed.'))
          : del(...(keys as [string]))) as never);
    try {
      await expect(
        knowledgeStatsProcessor.perform({ slot: 'a' }, { services: stack.services, job: {} as never }),
      ).rejects.toThrow(/closed/);
    } finally {
      failing.mockRestore();
    }
    // The retry (or the next minute's job) finds the counts already written: it only drops them.
    await knowledgeStatsProcessor.perform({ slot: 'b' }, { services: stack.services, job: {} as never });
    await stack.http
      .get(`/api/knowledge/public/spaces/${space.slug}/articles/${article.slug}`)
      .set('User-Agent', 'once-3')
      .expect(200);
    await eventually(async () => (await spaceViewsCounted(stack, owner.tenantId, space.id)) === 1, {
      what: 'the fourth view counted',
    });
    await knowledgeStatsProcessor.perform({ slot: 'c' }, { services: stack.services, job: {} as never });
    const stats = await stack.http.get(`/api/knowledge/spaces/${space.id}/analytics`).set(owner.auth).expect(200);
    expect(stats.body).toMatchObject({
      views: 4,
      uniqueReaders: 4,
      topArticles: [{ articleId: article.id, views: 4, readers: 4 }],
      searchesWithoutResult: [{ query: 'once nowhere', count: 1 }],
    });
  });

  it('a flush that outlived its lock leaves the lock another run took since (only its owner releases it)', async () => {
    const lock = stack.services.key('kb', 'flush-lock');
    const redis = stack.services.redis;
    const smembers = redis.smembers.bind(redis);
    // While this run works, its lock expires and another run takes it.
    const slow = jest.spyOn(redis, 'smembers').mockImplementationOnce((async (key: string) => {
      await redis.set(lock, 'another-run', 'PX', 60_000);
      return smembers(key);
    }) as never);
    try {
      await flushKnowledgeStats(stack.services);
    } finally {
      slow.mockRestore();
    }
    expect(await redis.get(lock)).toBe('another-run');
    // The other run holds it: this one does nothing meanwhile.
    expect(await flushKnowledgeStats(stack.services)).toBe(0);
    await redis.del(lock);
  });

  it('analytics: days summed in order, the ten most viewed existing articles, the twenty most missed queries, the range only', async () => {
    const { id: space } = await createSpace(stack, owner, { name: 'Stats', mode: 'public_kb' });
    const articles = [];
    for (let i = 0; i < 12; i++)
      articles.push((await createArticle(stack, owner, space, { title: `A${i}`, contentMarkdown: 'x' })).id);
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    const db = stack.services.orm.em.getConnection();
    const stat = (articleId: string | null, ago: number, views: number) =>
      db.execute(
        `insert into knowledge_daily_stats (id, tenant_id, space_id, article_id, day, views, readers, created_at) values (gen_random_uuid(), ?, ?, ?, ?, ?, 1, now())`,
        [owner.tenantId, space, articleId, day(ago), views],
      );
    await stat(null, 1, 10);
    await stat(null, 0, 5);
    await stat(null, 40, 99); // outside the 30 days
    // Article i gets i views yesterday and i today; a deleted article's views never take a place.
    for (const [i, id] of articles.entries()) for (const ago of [0, 1]) await stat(id, ago, i);
    await stat('00000000-0000-7000-8000-000000000001', 0, 1000);
    for (let i = 0; i < 22; i++)
      await db.execute(
        `insert into knowledge_search_misses (id, tenant_id, space_id, day, query, count, created_at) values (gen_random_uuid(), ?, ?, ?, ?, ?, now())`,
        [owner.tenantId, space, day(i % 2), `q${i}`, i + 1],
      );
    const res = await stack.http.get(`/api/knowledge/spaces/${space}/analytics`).set(owner.auth).expect(200);
    expect(res.body).toMatchObject({
      views: 15,
      uniqueReaders: 2,
      days: [
        { day: day(1), views: 10, readers: 1 },
        { day: day(0), views: 5, readers: 1 },
      ],
    });
    expect(
      res.body.topArticles.map((a: { title: string; views: number; readers: number }) => [a.title, a.views, a.readers]),
    ).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2].map((i) => [`A${i}`, 2 * i, 2]));
    expect(res.body.searchesWithoutResult).toHaveLength(20);
    expect(res.body.searchesWithoutResult[0]).toEqual({ query: 'q21', count: 22 });
    expect(
      (await stack.http.get(`/api/knowledge/spaces/${space}/analytics`).query({ days: 1 }).set(owner.auth)).body,
    ).toMatchObject({ views: 5, days: [{ day: day(0), views: 5 }] });
    // A member who may only read is shown the published articles only: no draft's title.
    await stack.http
      .post('/rbac/roles')
      .set(owner.auth)
      .send({ key: 'kb-reader', name: 'KB reader', permissions: ['knowledge.read'] })
      .expect(201);
    const reader = await addMember(stack, owner, 'kb-reader');
    await stack.http.post(`/api/knowledge/articles/${articles[3]}/publish`).set(owner.auth).expect(200);
    const read = await stack.http.get(`/api/knowledge/spaces/${space}/analytics`).set(reader.auth).expect(200);
    expect(read.body).toMatchObject({ views: 15, topArticles: [{ title: 'A3', views: 6 }] });
    expect(read.body.topArticles).toHaveLength(1);
  });

  it('AI: qa answers from retrieved articles and cites them; other operations go through the AI layer', async () => {
    ai.requests.length = 0;
    const qa = await stack.http
      .post('/api/knowledge/ai')
      .set(owner.auth)
      .send({ operation: 'qa', question: 'How do I deploy on kubernetes?' });
    expect(qa.status).toBe(200);
    expect(qa.body.text).toBe('Use the agent [1].');
    expect(qa.body.sources[0]).toMatchObject({ id: ids['Kubernetes deployment'], title: 'Kubernetes deployment' });
    const prompt = JSON.stringify(ai.requests[0]);
    expect(prompt).toContain('Helm charts');
    expect(prompt).not.toContain('Kubernetes secrets');
    const sum = await stack.http
      .post('/api/knowledge/ai')
      .set(owner.auth)
      .send({ operation: 'summarize', articleId: ids.Backups });
    expect(sum.body).toMatchObject({ operation: 'summarize', sources: [] });
    expect(JSON.stringify(ai.requests.at(-1))).toContain('Nightly backups');
    expect(
      (
        await stack.http
          .post('/api/knowledge/ai')
          .set(owner.auth)
          .send({ operation: 'rewrite', text: 'hello', instruction: 'shorter' })
      ).status,
    ).toBe(200);
    expect((await stack.http.post('/api/knowledge/ai').set(owner.auth).send({ operation: 'suggest' })).status).toBe(
      400,
    );
    expectProblem(
      await stack.http
        .post('/api/knowledge/ai')
        .set(other.auth)
        .send({ operation: 'summarize', articleId: ids.Backups }),
      404,
      'not_found',
    );
    // A member who may only read cannot have a draft summarised: 404 as when reading it, and nothing sent to the model.
    await stack.http
      .post('/rbac/roles')
      .set(owner.auth)
      .send({ key: 'kb-ai-reader', name: 'KB AI reader', permissions: ['knowledge.read'] })
      .expect(201);
    const reader = await addMember(stack, owner, 'kb-ai-reader');
    const sent = ai.requests.length;
    expectProblem(
      await stack.http
        .post('/api/knowledge/ai')
        .set(reader.auth)
        .send({ operation: 'summarize', articleId: ids.Backups }),
      404,
      'not_found',
    );
    expect(ai.requests.length).toBe(sent);
    expect(
      (
        await stack.http
          .post('/api/knowledge/ai')
          .set(reader.auth)
          .send({ operation: 'summarize', articleId: ids['Kubernetes deployment'] })
      ).status,
    ).toBe(200);

    const space = (await stack.http.get(`/api/knowledge/spaces/${spaceId}`).set(owner.auth)).body;
    const pub = await stack.http
      .post(`/api/knowledge/public/spaces/${space.slug}/qa`)
      .send({ question: 'kubernetes billing?' });
    expect(pub.status).toBe(200);
    // Only published articles are retrieved publicly.
    expect(pub.body.sources.map((s: { title: string }) => s.title)).toEqual(['Kubernetes deployment']);
    expect(pub.text).not.toContain(owner.tenantId);
    ai.failWith = 500;
    expectProblem(
      await stack.http.post('/api/knowledge/ai').set(owner.auth).send({ operation: 'rewrite', text: 'x' }),
      503,
      'ai_unavailable',
    );
    ai.failWith = null;
  });

  it('answers 503 ai_not_configured without an AI key', async () => {
    const bare = await startStack({ workers: false });
    try {
      const account = await createAccount(bare);
      expectProblem(
        await bare.http.post('/api/knowledge/ai').set(account.auth).send({ operation: 'rewrite', text: 'x' }),
        503,
        'ai_not_configured',
      );
      const { space } = await publishedArticle(
        bare,
        account,
        {},
        { title: 'Deploying', contentMarkdown: 'Deploy with Helm.' },
      );
      expectProblem(
        await bare.http.post(`/api/knowledge/public/spaces/${space.slug}/qa`).send({ question: 'how to deploy?' }),
        503,
        'ai_not_configured',
      );
      // Nothing to answer from: no model call, an answer saying so.
      expect(
        (await bare.http.post(`/api/knowledge/public/spaces/${space.slug}/qa`).send({ question: 'zzzz' })).body,
      ).toEqual({ answer: 'No article answers this question.', sources: [] });
    } finally {
      await bare.close();
    }
  });
});
