import { MailMessage } from '../../entities/platform/mail';
import { KnowledgeArticle } from '../../entities/knowledge/article';
import { KnowledgeSubscriber } from '../../entities/knowledge/subscriber';
import { DependencyUnavailableError } from '../../lib/dependencies';
import { relayStagedJobs } from '../../domain/jobs/relayStagedJobs';
import { knowledgeMailingQueue } from '../../queues/knowledge';
import { MAILING_BATCH } from '../../domain/knowledge/mailArticle';
import { knowledgeMailingProcessor } from '../../workers/knowledge/knowledge';
import { finishedJob } from '../support/billing';
import { createAccount, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem, mailsTo } from '../support/identity';
import { createArticle, createSpace, publishedArticle, richDoc } from '../support/knowledge';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

const P = '/api/knowledge/public';

/** The ids of the mailing jobs of an article the queue holds, whatever their state (enqueued with the request's commit). */
const mailingJobsOf = async (stack: TestStack, articleId: string): Promise<string[]> =>
  (
    await stack.services.queues
      .get(knowledgeMailingQueue)
      .getJobs(['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'])
  )
    .filter((job) => job.data.articleId === articleId)
    .map((job) => job.id ?? '')
    .sort();
const tokenOf = (mail: MailMessage, purpose: string) => {
  const match = new RegExp(`/subscribers/${purpose}\\?token=([^\\s]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${purpose} link in ${mail.text}`);
  return decodeURIComponent(match[1]);
};

describe('knowledge public surface (/api/knowledge/public)', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack();
    owner = await createAccount(stack);
  });
  afterAll(() => stack?.close());

  it('shows public spaces and published articles only, never a tenant id, an internal space or unpublished content (raw JSON)', async () => {
    const { space, article } = await publishedArticle(
      stack,
      owner,
      { name: 'Help Center', slug: 'help-center-pub' },
      {
        title: 'Getting started',
        contentMarkdown: '# Start\n\nRead **this**. <script>alert(1)</script> [x](javascript:alert(1))',
      },
    );
    const draft = await createArticle(stack, owner, space.id, {
      title: 'Secret draft',
      contentMarkdown: 'DRAFT-CONTENT-XYZ',
    });
    const internal = await createSpace(stack, owner, {
      name: 'Internal wiki',
      slug: 'internal-wiki-pub',
      mode: 'internal',
    });
    const internalArticle = await createArticle(stack, owner, internal.id, {
      title: 'Internal page',
      contentMarkdown: 'INTERNAL-CONTENT-XYZ',
    });
    await stack.http.post(`/api/knowledge/articles/${internalArticle.id}/publish`).set(owner.auth).expect(200);
    const archived = await createArticle(stack, owner, space.id, {
      title: 'Old page',
      contentMarkdown: 'ARCHIVED-CONTENT-XYZ',
    });
    await stack.http.post(`/api/knowledge/articles/${archived.id}/publish`).set(owner.auth).expect(200);
    await stack.http.delete(`/api/knowledge/articles/${archived.id}`).set(owner.auth).expect(204);

    const answers = [
      await stack.http.get(`${P}/spaces?limit=200`),
      await stack.http.get(`${P}/spaces/help-center-pub`),
      await stack.http.get(`${P}/spaces/help-center-pub/articles`),
      await stack.http.get(`${P}/spaces/help-center-pub/articles/${article.slug}`),
      await stack.http.get(`${P}/spaces/help-center-pub/search?q=content`),
      await stack.http.get(`${P}/spaces/help-center-pub/search?q=secret draft`),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      const raw = res.text;
      for (const leak of [
        owner.tenantId,
        'tenantId',
        'internal-wiki-pub',
        'Internal wiki',
        'INTERNAL-CONTENT-XYZ',
        'DRAFT-CONTENT-XYZ',
        'Secret draft',
        draft.slug,
        'ARCHIVED-CONTENT-XYZ',
        'Old page',
        owner.user.id,
        'authorId',
      ]) {
        expect(raw).not.toContain(leak);
      }
    }
    expect(answers[2].body.items.map((a: { slug: string }) => a.slug)).toEqual([article.slug]);
    const read = answers[3].body;
    expect(read.contentMarkdown).toContain('# Start');
    expect(read.html).toContain('<h1>Start</h1>');
    expect(read.html).toContain('<strong>this</strong>');
    expect(read.html).not.toMatch(/<script|href="javascript:/);
    expectProblem(await stack.http.get(`${P}/spaces/internal-wiki-pub`), 404, 'not_found');
    expectProblem(
      await stack.http.get(`${P}/spaces/internal-wiki-pub/articles/${internalArticle.slug}`),
      404,
      'not_found',
    );
    expectProblem(await stack.http.get(`${P}/spaces/help-center-pub/articles/${draft.slug}`), 404, 'not_found');
    expectProblem(await stack.http.get(`${P}/spaces/help-center-pub/articles/${archived.slug}`), 404, 'not_found');
  });

  it('renders rich documents to sanitised HTML', async () => {
    const doc = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Title <b>' }] },
        {
          type: 'paragraph',
          content: [{ type: 'text', text: 'link', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] }],
        },
      ],
    };
    const { space, article } = await publishedArticle(
      stack,
      owner,
      {},
      { title: 'Rich page', kind: 'rich', contentMarkdown: undefined, content: doc },
    );
    const res = await stack.http.get(`${P}/spaces/${space.slug}/articles/${article.slug}`);
    expect(res.body.html).toContain('<h2>Title &lt;b&gt;</h2>');
    expect(res.body.html).not.toContain('javascript:');
    expect(res.body.content).toEqual(doc);
  });

  it('serves the HTML stored with the version, renders rows written without it once, and changes the ETag with the content', async () => {
    const { space, article } = await publishedArticle(
      stack,
      owner,
      {},
      { title: 'Stored', contentMarkdown: 'First **draft**' },
    );
    const url = `${P}/spaces/${space.slug}/articles/${article.slug}`;
    const stored = async () =>
      (
        await stack.services.orm.em
          .fork()
          .getConnection()
          .execute(`select content_html from knowledge_articles where id = ?`, [article.id])
      )[0].content_html as string | null;
    expect(await stored()).toBe('<p>First <strong>draft</strong></p>\n');
    const first = await stack.http.get(url).expect(200);
    expect(first.body.html).toBe('<p>First <strong>draft</strong></p>\n');
    // A row from before the column: rendered on read, then stored.
    await stack.services.orm.em
      .fork()
      .getConnection()
      .execute(`update knowledge_articles set content_html = null where id = ?`, [article.id]);
    expect((await stack.http.get(url).expect(200)).body.html).toBe(first.body.html);
    expect(await eventually(stored)).toBe(first.body.html);
    await stack.http
      .patch(`/api/knowledge/articles/${article.id}`)
      .set(owner.auth)
      .send({ contentMarkdown: 'Second *take*' })
      .expect(200);
    const second = await stack.http.get(url).set('If-None-Match', first.headers.etag).expect(200);
    expect(second.body.html).toBe('<p>Second <em>take</em></p>\n');
    expect(second.headers.etag).not.toBe(first.headers.etag);
    expect((await stack.http.get(url).set('If-None-Match', second.headers.etag)).status).toBe(304);
  });

  it('answers with ETag and Cache-Control, and 304 to a matching If-None-Match', async () => {
    const { space, article } = await publishedArticle(stack, owner);
    const res = await stack.http.get(`${P}/spaces/${space.slug}/articles/${article.slug}`);
    expect(res.headers['cache-control']).toMatch(/public, max-age=\d+/);
    expect(res.headers.etag).toBeTruthy();
    const again = await stack.http
      .get(`${P}/spaces/${space.slug}/articles/${article.slug}`)
      .set('If-None-Match', res.headers.etag);
    expect(again.status).toBe(304);
    const dir = await stack.http.get(`${P}/spaces`);
    expect(dir.headers['cache-control']).toMatch(/public/);
    expect(dir.headers.etag).toBeTruthy();
  });

  it('blog subscribers: double opt-in, publish mails confirmed subscribers once, signed unsubscribe link', async () => {
    const blog = await createSpace(stack, owner, { name: 'Our Blog', mode: 'blog' });
    const kb = await createSpace(stack, owner, { mode: 'public_kb' });
    const alice = `alice.${Date.now()}@example.test`;
    const bob = `bob.${Date.now()}@example.test`;
    expect((await stack.http.post(`${P}/spaces/${blog.slug}/subscribe`).send({ email: alice })).status).toBe(202);
    expect((await stack.http.post(`${P}/spaces/${blog.slug}/subscribe`).send({ email: bob })).body).toEqual({
      status: 'pending',
    });
    expectProblem(await stack.http.post(`${P}/spaces/${kb.slug}/subscribe`).send({ email: alice }), 404, 'not_found');
    expectFieldErrors(await stack.http.post(`${P}/spaces/${blog.slug}/subscribe`).send({ email: 'nope' }), 'email');
    const confirmation = await eventually(async () => (await mailsTo(stack, alice, 'knowledge_subscribe_confirm'))[0]);
    // A forged or wrong-purpose token does nothing.
    const token = tokenOf(confirmation, 'confirm');
    expectProblem(
      await stack.http
        .post(`${P}/subscribers/confirm`)
        .send({ token: token.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')) }),
      404,
      'not_found',
    );
    expectProblem(await stack.http.post(`${P}/subscribers/unsubscribe`).send({ token }), 404, 'not_found');
    expect((await stack.http.get(`${P}/subscribers/confirm`).query({ token })).body).toEqual({ status: 'confirmed' });
    // Subscribing again when confirmed sends nothing more and answers the same.
    expect(
      (await stack.http.post(`${P}/spaces/${blog.slug}/subscribe`).send({ email: alice.toUpperCase() })).status,
    ).toBe(202);

    const post = await createArticle(stack, owner, blog.id, { title: 'Release notes', contentMarkdown: 'New things.' });
    await stack.http.post(`/api/knowledge/articles/${post.id}/publish`).set(owner.auth).expect(200);
    const mail = await eventually(async () => (await mailsTo(stack, alice, 'knowledge_article'))[0]);
    expect(mail.subject).toContain('Release notes');
    // Unpublish and publish again: nobody is mailed twice; bob never confirmed.
    await stack.http
      .post(`/api/knowledge/articles/${post.id}/status`)
      .set(owner.auth)
      .send({ status: 'draft' })
      .expect(200);
    await stack.http.post(`/api/knowledge/articles/${post.id}/publish`).set(owner.auth).expect(200);
    // The publication answered after its commit and enqueue: no second mailing job was staged.
    expect(await mailingJobsOf(stack, post.id)).toEqual([`kb-mail.${post.id}`]);
    expect(await mailsTo(stack, alice, 'knowledge_article')).toHaveLength(1);
    expect(await mailsTo(stack, bob, 'knowledge_article')).toHaveLength(0);
    expect(await mailsTo(stack, alice, 'knowledge_subscribe_confirm')).toHaveLength(1);

    const unsubscribe = tokenOf(mail, 'unsubscribe');
    expect((await stack.http.get(`${P}/subscribers/unsubscribe`).query({ token: unsubscribe })).body).toEqual({
      status: 'unsubscribed',
    });
    expect((await stack.http.post(`${P}/subscribers/unsubscribe`).send({ token: unsubscribe })).body).toEqual({
      status: 'unsubscribed',
    });
    const second = await createArticle(stack, owner, blog.id, { title: 'Second post', contentMarkdown: 'More.' });
    await stack.http.post(`/api/knowledge/articles/${second.id}/publish`).set(owner.auth).expect(200);
    expect((await finishedJob(stack, knowledgeMailingQueue, `kb-mail.${second.id}`)).returnvalue).toEqual({
      mailed: 0,
    });
    expect(await mailsTo(stack, alice, 'knowledge_article')).toHaveLength(1);
  });

  it('mails a large list in batches, each subscriber once', async () => {
    const blog = await createSpace(stack, owner, { mode: 'blog' });
    const em = stack.services.orm.em.fork();
    const n = 230;
    for (let i = 0; i < n; i++)
      em.create(KnowledgeSubscriber, {
        tenantId: owner.tenantId,
        spaceId: blog.id,
        email: `bulk${i}.${blog.id.slice(-6)}@example.test`,
        status: 'confirmed',
        confirmedAt: new Date(),
        unsubscribedAt: null,
      });
    await em.flush();
    const post = await createArticle(stack, owner, blog.id, { title: 'Bulk post', contentMarkdown: 'Hi.' });
    await stack.http.post(`/api/knowledge/articles/${post.id}/publish`).set(owner.auth).expect(200);
    await eventually(
      async () => (await em.fork().count(MailMessage, { dedupeKey: { $like: `kb:${post.id}:%` } })) === n || null,
      { timeoutMs: 20_000, what: 'every subscriber mailed' },
    );
  });

  it('a publication whose mailing could not be enqueued mails the subscribers once, through the relay', async () => {
    const blog = await createSpace(stack, owner, { mode: 'blog' });
    const email = `blip.${blog.id.slice(-6)}@example.test`;
    const em = stack.services.orm.em.fork();
    em.create(KnowledgeSubscriber, {
      tenantId: owner.tenantId,
      spaceId: blog.id,
      email,
      status: 'confirmed',
      confirmedAt: new Date(),
      unsubscribedAt: null,
    });
    await em.flush();
    const post = await createArticle(stack, owner, blog.id, { title: 'Blip post', contentMarkdown: 'Hi.' });
    const publish = () => stack.http.post(`/api/knowledge/articles/${post.id}/publish`).set(owner.auth);
    const stored = () => em.fork().findOneOrFail(KnowledgeArticle, { id: post.id }, { filters: false });
    const addStaged = jest
      .spyOn(stack.services.queues, 'addStaged')
      .mockRejectedValueOnce(new DependencyUnavailableError('Redis'));
    try {
      expect((await publish()).body).toMatchObject({ status: 'published' });
    } finally {
      addStaged.mockRestore();
    }
    // Published and its mailing committed with it, not enqueued yet: the relay enqueues it.
    const mailing = stack.services.queues.get(knowledgeMailingQueue);
    expect(await mailing.getJobState(`kb-mail.${post.id}`)).toBe('unknown');
    expect((await stored()).mailedAt).toBeInstanceOf(Date);
    await relayStagedJobs(stack.services, 0);
    expect((await finishedJob(stack, knowledgeMailingQueue, `kb-mail.${post.id}`)).returnvalue).toEqual({ mailed: 1 });
    await publish().expect(200);
    expect(await mailingJobsOf(stack, post.id)).toEqual([`kb-mail.${post.id}`]);
    expect(await mailsTo(stack, email, 'knowledge_article')).toHaveLength(1);
  });

  it('public search ranks published articles of the space only, typo included', async () => {
    const space = await createSpace(stack, owner, { mode: 'public_kb' });
    const install = await createArticle(stack, owner, space.id, {
      title: 'Installation guide',
      contentMarkdown: 'How to install the agent on Linux.',
    });
    await createArticle(stack, owner, space.id, {
      title: 'Installation secrets',
      contentMarkdown: 'Unpublished installation notes.',
    });
    await stack.http.post(`/api/knowledge/articles/${install.id}/publish`).set(owner.auth).expect(200);
    const res = await stack.http.get(`${P}/spaces/${space.slug}/search`).query({ q: 'instllation' });
    expect(res.body.items.map((h: { slug: string }) => h.slug)).toEqual([install.slug]);
    expect(res.body.items[0].fuzzy).toBe(true);
    const exact = await stack.http.get(`${P}/spaces/${space.slug}/search`).query({ q: 'linux agent' });
    expect(exact.body.items[0]).toMatchObject({ slug: install.slug, fuzzy: false });
    expect(exact.body.items[0].snippet).toContain('<mark>');
  });

  it('refuses bad input with problem+json', async () => {
    expectFieldErrors(await stack.http.get(`${P}/spaces/NOT_A_SLUG`), 'slug');
    expectFieldErrors(await stack.http.get(`${P}/spaces?limit=0`), 'limit');
    expectFieldErrors(await stack.http.post(`${P}/subscribers/confirm`).send({}), 'token');
    expectProblem(await stack.http.get(`${P}/spaces/no-such-space/articles`), 404, 'not_found');
    expectFieldErrors(await stack.http.get(`${P}/spaces/no-such-space/search`), 'q');
  });

  it('rich content is flattened for search', async () => {
    const space = await createSpace(stack, owner, { mode: 'public_kb' });
    const a = await createArticle(stack, owner, space.id, {
      title: 'Rich searchable',
      kind: 'rich',
      contentMarkdown: undefined,
      content: richDoc('Photosynthesis converts light'),
    });
    await stack.http.post(`/api/knowledge/articles/${a.id}/publish`).set(owner.auth).expect(200);
    const res = await stack.http.get(`${P}/spaces/${space.slug}/search`).query({ q: 'photosynthesis' });
    expect(res.body.items.map((h: { slug: string }) => h.slug)).toEqual([a.slug]);
  });
});

describe('blog mailing interrupted by an unpublication', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    // No workers: the test runs each mailing batch itself, to unpublish the article between two of them.
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
  });
  afterAll(() => stack?.close());

  const queue = () => stack.services.queues.get(knowledgeMailingQueue);
  /** Runs the mailing jobs waiting in the queue once each, as a worker would, until none is left that did not run. */
  const runWaiting = async (ran: Set<string>) => {
    for (
      let jobs = await queue().getJobs(['waiting', 'delayed']);
      jobs.some((j) => !ran.has(j.id!));
      jobs = await queue().getJobs(['waiting', 'delayed'])
    ) {
      for (const job of jobs.filter((j) => !ran.has(j.id!))) {
        ran.add(job.id!);
        await knowledgeMailingProcessor.perform(job.data, { services: stack.services, job: job as never });
      }
    }
  };
  const blogWith = async (subscribers: number) => {
    const blog = await createSpace(stack, owner, { mode: 'blog' });
    const em = stack.services.orm.em.fork();
    const emails = Array.from({ length: subscribers }, (_, i) => `reader${i}.${blog.id.slice(-6)}@example.test`);
    for (const email of emails)
      em.create(KnowledgeSubscriber, {
        tenantId: owner.tenantId,
        spaceId: blog.id,
        email,
        status: 'confirmed',
        confirmedAt: new Date(),
        unsubscribedAt: null,
      });
    await em.flush();
    return { blog, emails };
  };
  const status = (id: string, to: string) =>
    stack.http.post(`/api/knowledge/articles/${id}/status`).set(owner.auth).send({ status: to }).expect(200);
  const publish = (id: string) => stack.http.post(`/api/knowledge/articles/${id}/publish`).set(owner.auth).expect(200);
  /** How many times each address got an article (the outbox, in the order of the addresses). */
  const articleMails = async (emails: string[]) => {
    const mails = await stack.services.orm.em
      .fork()
      .find(MailMessage, { to: { $in: emails }, template: 'knowledge_article' }, { fields: ['to'] });
    return emails.map((email) => mails.filter((m) => m.to === email).length);
  };

  it('mails nobody while the article is unpublished, and the rest of the subscribers once it is published again, each once', async () => {
    const { blog, emails } = await blogWith(MAILING_BATCH + 1);
    const post = await createArticle(stack, owner, blog.id, { title: 'Interrupted post', contentMarkdown: 'Hi.' });
    await publish(post.id);
    const first = (await queue().getJob(`kb-mail.${post.id}`))!;
    expect(
      await knowledgeMailingProcessor.perform(first.data, { services: stack.services, job: first as never }),
    ).toEqual({ mailed: MAILING_BATCH });
    // An editor archives the article for a fix while the second batch waits.
    await status(post.id, 'archived');
    const ran = new Set([first.id!]);
    await runWaiting(ran);
    expect((await articleMails(emails)).filter((n) => n === 1)).toHaveLength(MAILING_BATCH);
    expect((await articleMails(emails)).at(-1)).toBe(0);
    // Published again: the subscriber the mailing had not reached gets the article; nobody gets it twice.
    await publish(post.id);
    await runWaiting(ran);
    expect(await articleMails(emails)).toEqual(emails.map(() => 1));
    // Unpublished and published once more after the mailing ended: nothing more.
    await status(post.id, 'draft');
    await publish(post.id);
    await runWaiting(ran);
    expect(await articleMails(emails)).toEqual(emails.map(() => 1));
  });

  it('mails every subscriber once an article sent back to draft before its first batch is published again', async () => {
    const { blog, emails } = await blogWith(3);
    const post = await createArticle(stack, owner, blog.id, { title: 'Too early', contentMarkdown: 'Hi.' });
    await publish(post.id);
    await status(post.id, 'draft');
    const ran = new Set<string>();
    await runWaiting(ran);
    expect(await articleMails(emails)).toEqual([0, 0, 0]);
    await publish(post.id);
    await runWaiting(ran);
    expect(await articleMails(emails)).toEqual([1, 1, 1]);
  });
});
