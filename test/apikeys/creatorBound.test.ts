import { addMember, createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { createArticle, createSpace } from '../support/knowledge';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

/**
 * An integration key is an extension of the member who creates it: it never writes, nor reads drafts, where its
 * creator could not with their own login, neither at its creation nor later (regression of the audit
 * test/audit-kb/apikeys.test.ts: a member allowed to manage keys but not to write minted a write key).
 */
describe('API keys bound to their creator', () => {
  let a: TestStack;
  let b: TestStack;
  let owner: Account;
  let keeper: Account;
  beforeAll(async () => {
    a = await startStack({ workers: false });
    b = await startStack({ sharing: a, workers: false });
    owner = await createAccount(a);
    keeper = await addMember(a, owner, 'member');
    // The organisation gives members key management on both surfaces, and takes the write permissions from them.
    const role = await a.services.orm.em
      .fork()
      .getConnection()
      .execute(`select id, permissions from roles where tenant_id = ? and key = 'member'`, [owner.tenantId]);
    const perms = [
      ...(role[0].permissions as string[]).filter((p) => p !== 'knowledge.write' && p !== 'core.customers.write'),
      'knowledge.keys.manage',
      'core.settings.manage',
    ];
    await a.http.put(`/rbac/roles/${role[0].id}/permissions`).set(owner.auth).send({ permissions: perms }).expect(200);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const newKey = async (who: Account, scope: 'read' | 'write', path = '/api/knowledge/keys') => {
    const res = await a.http
      .post(path)
      .set(who.auth)
      .send({ label: `${scope} key`, scope });
    expect(res.status).toBe(201);
    return res.body as { id: string; key: string; seesUnpublished: boolean };
  };
  const readArticle = (stack: TestStack, key: string, id: string) =>
    stack.http.get(`/api/public/knowledge/articles/${id}`).set('X-Server-API-Key', key);
  const renameSpace = (stack: TestStack, key: string, id: string) =>
    stack.http
      .patch(`/api/public/knowledge/spaces/${id}`)
      .set('X-Server-API-Key', key)
      .send({ name: `Renamed ${Date.now()}` });

  it('a member without knowledge.write cannot obtain a write key (403), nor write through one', async () => {
    const space = await createSpace(a, owner, { name: 'Policies' });
    // Control: the member may not write with its own token.
    expect(
      (await a.http.post('/api/knowledge/spaces').set(keeper.auth).send({ name: 'Mine', mode: 'internal' })).status,
    ).toBe(403);
    const created = await a.http
      .post('/api/knowledge/keys')
      .set(keeper.auth)
      .send({ label: 'escalate', scope: 'write' });
    const problem = expectProblem(created, 403, 'permission_escalation');
    expect(problem.detail).toContain('knowledge.write');
    expect(created.body.key).toBeUndefined();
    // Nothing was created, and a read key of the same member cannot write either.
    expect(
      (await a.http.get('/api/knowledge/keys').set(owner.auth)).body.items.map((k: { label: string }) => k.label),
    ).not.toContain('escalate');
    expectProblem(await renameSpace(a, (await newKey(keeper, 'read')).key, space.id), 403, 'api_key_scope_missing');
  });

  it('a member who may only read published articles cannot read drafts through a key it creates', async () => {
    const space = await createSpace(a, owner, { name: 'Roadmap' });
    const draft = await createArticle(a, owner, space.id, {
      title: 'Unannounced plan',
      contentMarkdown: 'SECRET-DRAFT',
    });
    expect((await a.http.get(`/api/knowledge/articles/${draft.id}`).set(keeper.auth)).status).toBe(404);
    const created = await newKey(keeper, 'read');
    expect(created.seesUnpublished).toBe(false);
    const read = await readArticle(a, created.key, draft.id);
    expect(read.status).toBe(404);
    expect(JSON.stringify(read.body)).not.toContain('SECRET-DRAFT');
    const listed = await a.http
      .get(`/api/public/knowledge/spaces/${space.id}/articles`)
      .set('X-Server-API-Key', created.key)
      .expect(200);
    expect(listed.body.items).toEqual([]);
    // Published, the article is read through the same key; an owner's key reads the draft as the owner does.
    const other = await createArticle(a, owner, space.id, { title: 'Public plan', contentMarkdown: 'PUBLISHED' });
    await a.http.post(`/api/knowledge/articles/${other.id}/publish`).set(owner.auth).expect(200);
    expect((await readArticle(a, created.key, other.id)).status).toBe(200);
    const owners = await newKey(owner, 'read');
    expect(owners.seesUnpublished).toBe(true);
    expect((await readArticle(a, owners.key, draft.id)).body.contentMarkdown).toBe('SECRET-DRAFT');
  });

  it('the hub keys follow the same rule: a write key needs core.customers.write (403), a read key core.customers.read', async () => {
    const problem = expectProblem(
      await a.http.post('/api/hub/keys').set(keeper.auth).send({ label: 'import', scope: 'write' }),
      403,
      'permission_escalation',
    );
    expect(problem.detail).toContain('core.customers.write');
    const reader = await newKey(keeper, 'read', '/api/hub/keys');
    expect(reader.seesUnpublished).toBe(false);
    expect((await a.http.get('/api/public/hub/customers').set('X-Server-API-Key', reader.key)).status).toBe(200);
  });

  it('a key loses at once, on every instance, what its creator loses: write and drafts with knowledge.write, everything when they leave', async () => {
    const editor = await addMember(a, owner, 'admin');
    const space = await createSpace(a, owner, { name: 'Handbook' });
    const draft = await createArticle(a, owner, space.id, { title: 'Draft', contentMarkdown: 'DRAFT' });
    const published = await createArticle(a, owner, space.id, { title: 'Published', contentMarkdown: 'PUBLISHED' });
    await a.http.post(`/api/knowledge/articles/${published.id}/publish`).set(owner.auth).expect(200);
    const { key, seesUnpublished } = await newKey(editor, 'write');
    expect(seesUnpublished).toBe(true);
    // Both instances have resolved (and memoised) the key with everything.
    for (const stack of [a, b]) {
      expect((await readArticle(stack, key, draft.id)).status).toBe(200);
      expect((await renameSpace(stack, key, space.id)).status).toBe(200);
    }

    await a.http
      .put(`/rbac/members/${editor.user.id}/roles`)
      .set(owner.auth)
      .send({ roles: ['member'] })
      .expect(200);
    for (const stack of [a, b]) {
      await eventually(async () => (await renameSpace(stack, key, space.id)).status === 403, {
        timeoutMs: 2000,
        intervalMs: 10,
        what: 'the write refused',
      });
      expectProblem(await renameSpace(stack, key, space.id), 403, 'api_key_scope_missing');
      expect((await readArticle(stack, key, draft.id)).status).toBe(404);
      expect((await readArticle(stack, key, published.id)).status).toBe(200);
    }
    // Given back its permissions, the creator's key does what it was created for again.
    await a.http
      .put(`/rbac/members/${editor.user.id}/roles`)
      .set(owner.auth)
      .send({ roles: ['admin'] })
      .expect(200);
    await eventually(async () => (await readArticle(b, key, draft.id)).status === 200, {
      timeoutMs: 2000,
      intervalMs: 10,
      what: 'the draft read again',
    });

    await a.http.delete(`/orgs/${owner.tenantId}/members/${editor.user.id}`).set(owner.auth).expect(204);
    for (const stack of [a, b]) {
      await eventually(async () => (await readArticle(stack, key, published.id)).status === 401, {
        timeoutMs: 2000,
        intervalMs: 10,
        what: 'the key refused',
      });
      expectProblem(await readArticle(stack, key, published.id), 401, 'api_key_invalid');
    }
  });

  it('a key stops when the role of its creator loses knowledge.read', async () => {
    const org = await createAccount(a);
    const member = await addMember(a, org, 'member');
    const roles = await a.services.orm.em
      .fork()
      .getConnection()
      .execute(`select id, permissions from roles where tenant_id = ? and key = 'member'`, [org.tenantId]);
    await a.http
      .put(`/rbac/roles/${roles[0].id}/permissions`)
      .set(org.auth)
      .send({ permissions: [...roles[0].permissions, 'knowledge.keys.manage'] })
      .expect(200);
    const { key } = await newKey(member, 'write');
    const space = await createSpace(a, org, { name: 'Notes' });
    expect((await a.http.get(`/api/public/knowledge/spaces/${space.id}`).set('X-Server-API-Key', key)).status).toBe(
      200,
    );
    await a.http
      .put(`/rbac/roles/${roles[0].id}/permissions`)
      .set(org.auth)
      .send({
        permissions: [...roles[0].permissions.filter((p: string) => p !== 'knowledge.read'), 'knowledge.keys.manage'],
      })
      .expect(200);
    for (const stack of [a, b]) {
      await eventually(
        async () =>
          (await stack.http.get(`/api/public/knowledge/spaces/${space.id}`).set('X-Server-API-Key', key)).status ===
          401,
        { timeoutMs: 2000, intervalMs: 10, what: 'the key refused' },
      );
    }
  });
});
