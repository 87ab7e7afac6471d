import { createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { createSpace } from '../support/knowledge';
import { startStack, type TestStack } from '../support/stack';

/**
 * Derived article slugs under concurrency (an import, several MCP calls at once): never a 409 the client did not
 * cause by asking for a slug (regression of the audit test/audit-kb/slugs.test.ts).
 */
describe('derived article slugs', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
  });
  afterAll(() => stack?.close());

  const create = (spaceId: string, body: Record<string, unknown>) =>
    stack.http
      .post(`/api/knowledge/spaces/${spaceId}/articles`)
      .set(owner.auth)
      .send({ kind: 'developer', contentMarkdown: 'x', ...body });

  it('articles created at the same time with the same title and no slug all succeed with distinct slugs (never 409 slug_taken)', async () => {
    const space = await createSpace(stack, owner);
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(space.id, { title: 'Release notes' })));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(new Set(answers.map((r) => r.body.slug))).toEqual(
      new Set([
        'release-notes',
        'release-notes-2',
        'release-notes-3',
        'release-notes-4',
        'release-notes-5',
        'release-notes-6',
      ]),
    );
  });

  it("a derived slug meeting another title's at the same time is retried with the next free one", async () => {
    const space = await createSpace(stack, owner);
    await create(space.id, { title: 'Notes' }).expect(201);
    // "Notes" derives notes-2 while "Notes 2" derives notes-2 too, under another base.
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => create(space.id, { title: i % 2 ? 'Notes 2' : 'Notes' })),
    );
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(answers.map((r) => r.body.slug)).size).toBe(4);
  });

  it('a slug asked for that is taken is still a 409 slug_taken, also at the same time', async () => {
    const space = await createSpace(stack, owner);
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => create(space.id, { title: 'Pinned', slug: 'pinned' })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const res of answers.filter((r) => r.status === 409)) expectProblem(res, 409, 'slug_taken');
  });

  it('spaces created at the same time with the same name and no slug all succeed', async () => {
    const name = `Team handbook ${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        stack.http.post('/api/knowledge/spaces').set(owner.auth).send({ name, mode: 'internal' }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(answers.map((r) => r.body.slug)).size).toBe(4);
  });
});
