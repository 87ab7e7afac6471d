import { createHash } from 'node:crypto';
import { addMember, createAccount, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ workers: false });
});
afterAll(() => stack.close());

/** Key management on both mounts: /api/knowledge/keys (knowledge) and /api/hub/keys (core). */
describe.each([
  { path: '/api/knowledge/keys', module: 'knowledge', other: '/api/hub/keys' },
  { path: '/api/hub/keys', module: 'core', other: '/api/knowledge/keys' },
])('API keys at $path', ({ path, module, other }) => {
  let owner: Account;
  beforeAll(async () => {
    owner = await createAccount(stack);
  });

  const create = (body: object, who: Account = owner) => stack.http.post(path).set(who.auth).send(body);
  const list = (query = '', who: Account = owner) => stack.http.get(`${path}${query}`).set(who.auth);

  it('shows the key once at creation, stores only its hash, and never lists it', async () => {
    const res = await create({ label: '  Zapier  ', scope: 'write' });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const { key, ...shown } = res.body;
    expect(key).toMatch(new RegExp(`^psk_${module}_[0-9A-Za-z]{49}$`));
    expect(shown).toEqual({
      id: expect.any(String),
      label: 'Zapier',
      scope: 'write',
      scopes: ['read', 'write'],
      prefix: key.slice(0, `psk_${module}_`.length + 8),
      createdBy: owner.user.id,
      // An owner's knowledge key reads unpublished articles as the owner does; hub keys have none to read.
      seesUnpublished: module === 'knowledge',
      createdAt: expect.any(String),
      lastUsedAt: null,
    });

    const listed = await list();
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([shown]);
    expect(JSON.stringify(listed.body)).not.toContain(key.slice(shown.prefix.length));

    // At rest: the SHA-256 of the key, and nothing of the key beyond its visible prefix.
    const [row] = await stack.services.orm.em
      .fork()
      .getConnection()
      .execute<{ secret_hash: string; json: string }[]>(
        `select secret_hash, row_to_json(k)::text as json from api_keys k where id = ?`,
        [shown.id],
      );
    expect(row.secret_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(row.json).not.toContain(key.slice(shown.prefix.length));
  });

  it('defaults to scope read, pages the list oldest first, and deletes', async () => {
    const reader = await create({ label: 'Reader' });
    expect(reader.status).toBe(201);
    expect(reader.body).toMatchObject({ scope: 'read', scopes: ['read'] });
    const third = await create({ label: 'Third' });

    const first = await list('?limit=2');
    expect(first.body.items).toHaveLength(2);
    expect(first.body.nextCursor).toBe(first.body.items[1].id);
    const second = await list(`?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({
      items: [expect.objectContaining({ id: third.body.id, label: 'Third' })],
      nextCursor: null,
    });

    expect((await stack.http.delete(`${path}/${reader.body.id}`).set(owner.auth)).status).toBe(204);
    expect((await list()).body.items.map((k: { id: string }) => k.id)).not.toContain(reader.body.id);
    expectProblem(await stack.http.delete(`${path}/${reader.body.id}`).set(owner.auth), 404, 'not_found');
  });

  it("keeps each module's keys apart, and another organisation out (404)", async () => {
    const mine = await create({ label: 'Mine' });
    expect((await stack.http.get(other).set(owner.auth)).body.items.map((k: { id: string }) => k.id)).not.toContain(
      mine.body.id,
    );
    expectProblem(await stack.http.delete(`${other}/${mine.body.id}`).set(owner.auth), 404, 'not_found');

    const stranger = await createAccount(stack);
    expect((await list('', stranger)).body.items).toEqual([]);
    expectProblem(await stack.http.delete(`${path}/${mine.body.id}`).set(stranger.auth), 404, 'not_found');
    expect((await list()).body.items.map((k: { id: string }) => k.id)).toContain(mine.body.id);
  });

  it('needs a token and the permission to manage keys', async () => {
    expectProblem(await stack.http.get(path), 401, 'token_missing');
    const member = await addMember(stack, owner, 'member');
    expectProblem(await list('', member), 403, 'permission_denied');
    expectProblem(await create({ label: 'Nope' }, member), 403, 'permission_denied');
  });

  it('refuses bad input with problem+json and creates nothing', async () => {
    const before = (await list('?limit=200')).body.items.length;
    expectFieldErrors(await create({}), 'label');
    expectFieldErrors(await create({ label: '' }), 'label');
    expectFieldErrors(await create({ label: '   ' }), 'label');
    expectFieldErrors(await create({ label: 'x'.repeat(101) }), 'label');
    expectFieldErrors(await create({ label: 'a\u0000b' }), 'label');
    expectFieldErrors(await create({ label: 42 }), 'label');
    expectFieldErrors(await create({ label: 'ok', scope: 'admin' }), 'scope');
    expectFieldErrors(await create({ label: 'ok', scopes: ['write'] }), 'scopes');
    expectProblem(
      await stack.http.post(path).set(owner.auth).set('Content-Type', 'text/plain').send('label=x'),
      415,
      'unsupported_media_type',
    );
    expectProblem(
      await stack.http.post(path).set(owner.auth).set('Content-Type', 'application/json').send('{"label":'),
      400,
      'malformed_json',
    );
    expectFieldErrors(await list('?limit=0'), 'limit');
    expectFieldErrors(await list('?cursor=nope'), 'cursor');
    expectFieldErrors(await stack.http.delete(`${path}/not-a-uuid`).set(owner.auth), 'id');
    expect((await list('?limit=200')).body.items).toHaveLength(before);
  });

  it('is documented in OpenAPI', async () => {
    const doc = (await stack.http.get('/openapi.json')).body;
    const createOp = doc.paths[path].post;
    expect(createOp.security).toEqual([{ bearerAuth: [] }]);
    expect(createOp.responses['201'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/CreatedApiKeyView',
    );
    expect(createOp.responses['403'].description).toContain(`module ${module}`);
    expect(doc.components.schemas.CreatedApiKeyView.properties.key.description).toMatch(/once/);
    expect(doc.components.schemas.ApiKeyView.properties).not.toHaveProperty('key');
    expect(doc.components.schemas.ApiKeyView.properties.lastUsedAt.type).toEqual(['string', 'null']);
    expect(doc.paths[`${path}/{id}`].delete.responses).toHaveProperty('404');
  });
});
