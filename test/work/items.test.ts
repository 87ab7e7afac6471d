import { randomUUID } from 'node:crypto';
import { addMember, createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

describe('work items', () => {
  let stack: TestStack;
  let owner: Account;
  let member: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
    member = await addMember(stack, owner, 'member');
  });
  afterAll(() => stack.close());

  it('creates, reads, lists, edits and deletes', async () => {
    const res = await stack.http
      .post('/api/work/items')
      .set(member.auth)
      .send({ title: ' Fix the login ', link: { provider: 'github', repository: 'Acme/Web', number: 12 } });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/api/work/items/${res.body.id}`);
    expect(res.body).toMatchObject({
      title: 'Fix the login',
      status: 'todo',
      description: null,
      createdBy: member.user.id,
      link: { provider: 'github', repository: 'acme/web', number: 12, lastEventAt: null },
    });
    const id = res.body.id as string;
    await stack.http
      .post('/api/work/items')
      .set(owner.auth)
      .send({ title: 'Unlinked', status: 'in_progress' })
      .expect(201);

    const list = await stack.http.get('/api/work/items').set(member.auth).expect(200);
    expect(list.body.items.map((i: { title: string }) => i.title)).toEqual(['Unlinked', 'Fix the login']);
    expect(
      (await stack.http.get('/api/work/items?repository=ACME/web').set(member.auth)).body.items.map(
        (i: { id: string }) => i.id,
      ),
    ).toEqual([id]);
    expect((await stack.http.get('/api/work/items?status=in_progress').set(member.auth)).body.items).toHaveLength(1);

    const edited = await stack.http
      .patch(`/api/work/items/${id}`)
      .set(member.auth)
      .send({
        status: 'done',
        description: 'Done by hand',
        link: { provider: 'github', repository: 'acme/web', number: 13 },
      })
      .expect(200);
    expect(edited.body).toMatchObject({ status: 'done', description: 'Done by hand', link: { number: 13 } });
    expect((await stack.http.delete(`/api/work/items/${id}/link`).set(member.auth).expect(200)).body.link).toBeNull();
    expect(
      (await stack.http.patch(`/api/work/items/${id}`).set(member.auth).send({ description: null }).expect(200)).body
        .description,
    ).toBeNull();
    await stack.http.delete(`/api/work/items/${id}`).set(member.auth).expect(204);
    expectProblem(await stack.http.get(`/api/work/items/${id}`).set(member.auth), 404, 'not_found');
  });

  it('validates input', async () => {
    expectProblem(
      await stack.http.post('/api/work/items').set(owner.auth).send({ title: '' }),
      400,
      'validation_failed',
    );
    // Titles are stored trimmed: blanks only were stored as an empty title.
    expectProblem(
      await stack.http.post('/api/work/items').set(owner.auth).send({ title: '   ' }),
      400,
      'validation_failed',
    );
    const item = (await stack.http.post('/api/work/items').set(owner.auth).send({ title: 'x' }).expect(201)).body as {
      id: string;
    };
    expectProblem(
      await stack.http.patch(`/api/work/items/${item.id}`).set(owner.auth).send({ title: ' \t ' }),
      400,
      'validation_failed',
    );
    expectProblem(
      await stack.http.post('/api/work/items').set(owner.auth).send({ title: 'x', status: 'closed' }),
      400,
      'validation_failed',
    );
    expectProblem(
      await stack.http
        .post('/api/work/items')
        .set(owner.auth)
        .send({ title: 'x', link: { provider: 'gitlab', repository: 'a/b', number: 1 } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await stack.http
        .post('/api/work/items')
        .set(owner.auth)
        .send({ title: 'x', link: { provider: 'github', repository: 'nope', number: 1 } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await stack.http
        .post('/api/work/items')
        .set(owner.auth)
        .send({ title: 'x', link: { provider: 'github', repository: 'a/b', number: 0 } }),
      400,
      'validation_failed',
    );
  });

  it('needs a token, and work.integrations.manage for the webhook secret', async () => {
    expectProblem(await stack.http.get('/api/work/items'), 401, 'token_missing');
    expectProblem(await stack.http.put('/api/work/github/secret').set(member.auth).send({}), 403, 'permission_denied');
    expectProblem(await stack.http.get('/api/work/github').set(member.auth), 403, 'permission_denied');
  });

  it("isolates organisations: another organisation's item is a 404", async () => {
    const mine = await stack.http.post('/api/work/items').set(owner.auth).send({ title: 'Mine' }).expect(201);
    const stranger = await createAccount(stack);
    for (const req of [
      stack.http.get(`/api/work/items/${mine.body.id}`),
      stack.http.patch(`/api/work/items/${mine.body.id}`).send({ title: 'Theirs' }),
      stack.http.delete(`/api/work/items/${mine.body.id}`),
    ]) {
      expectProblem(await req.set(stranger.auth), 404, 'not_found');
    }
    expect((await stack.http.get('/api/work/items').set(stranger.auth)).body.items).toEqual([]);
    expectProblem(await stack.http.get(`/api/work/items/${randomUUID()}`).set(owner.auth), 404, 'not_found');
    expect((await stack.http.get(`/api/work/items/${mine.body.id}`).set(owner.auth)).body.title).toBe('Mine');
  });
});
