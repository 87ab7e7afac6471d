import { apiModules } from '../../api/modules';
import type { ModuleMount } from '../../api/http/mount';
import { generateApiKey } from '../../domain/apikeys/keyFormat';
import { ApiKey } from '../../entities/apikeys/apiKey';
import { Plan } from '../../entities/billing/plan';
import { createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

/**
 * Test-only integration routes, declared the way a module declares its own: what the handler is given
 * (the principal and a context bound to the key's organisation) is echoed back.
 */
function integrationProbe({ routes }: ModuleMount): void {
  const r = routes('Test');
  for (const module of ['knowledge', 'core'] as const) {
    r.get(
      `/test-${module}/whoami`,
      {
        access: 'apiKey',
        apiKey: { module },
        summary: 'Who am I',
        response: { description: 'The principal', schema: { type: 'object' } },
      },
      async ({ apiKey, ctx }) => ({
        apiKey,
        tenantId: ctx.tenantId,
        userId: ctx.userId,
        // The context's tenant filter: the key's organisation only.
        keysVisible: await ctx.em.count(ApiKey, {}),
      }),
    );
    r.post(
      `/test-${module}/things`,
      {
        access: 'apiKey',
        apiKey: { module },
        summary: 'Make a thing',
        response: { description: 'Made', schema: { type: 'object' } },
      },
      () => ({ made: true }),
    );
  }
}
apiModules.push(integrationProbe);

describe('API-key routes', () => {
  let a: TestStack;
  let b: TestStack;
  let owner: Account;
  let admin: Account;
  beforeAll(async () => {
    a = await startStack({ workers: false });
    b = await startStack({ sharing: a, workers: false });
    owner = await createAccount(a);
    admin = await createAccount(a, { platformAdmin: true });
    // Another organisation's key exists too: the context must not see it.
    const stranger = await createAccount(a);
    await a.http.post('/api/knowledge/keys').set(stranger.auth).send({ label: 'Theirs' }).expect(201);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const newKey = async (scope: 'read' | 'write', mount = '/api/knowledge/keys') => {
    const res = await a.http
      .post(mount)
      .set(owner.auth)
      .send({ label: `${scope} key`, scope });
    expect(res.status).toBe(201);
    return res.body as { id: string; key: string };
  };
  const whoami = (stack: TestStack, key?: string, module = 'knowledge') => {
    const req = stack.http.get(`/test-${module}/whoami`);
    return key === undefined ? req : req.set('X-Server-API-Key', key);
  };
  const make = (key: string) => a.http.post('/test-knowledge/things').set('X-Server-API-Key', key);

  it('refuses a missing, malformed, mistyped or unknown key (401)', async () => {
    const { key } = await newKey('read');
    const mistyped = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    for (const given of [undefined, '', 'nope', `Bearer ${key}`, mistyped, generateApiKey('knowledge').key]) {
      expectProblem(await whoami(a, given), 401, 'api_key_invalid');
    }
  });

  it("hands the handler the key and a context bound to the key's organisation", async () => {
    const { id, key } = await newKey('read');
    const res = await whoami(a, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      apiKey: { keyId: id, tenantId: owner.tenantId, module: 'knowledge', scopes: ['read'] },
      tenantId: owner.tenantId,
      userId: null,
    });
    const own = await a.services.orm.em.fork().count(ApiKey, { tenantId: owner.tenantId }, { filters: false });
    expect(res.body.keysVisible).toBe(own);
  });

  it('needs the scope write for a mutation (403), which a write key has', async () => {
    expectProblem(await make((await newKey('read')).key), 403, 'api_key_scope_missing');
    const writer = await newKey('write');
    expect((await make(writer.key)).body).toEqual({ made: true });
    expect((await whoami(a, writer.key)).status).toBe(200);
  });

  it("refuses a key on another module's surface (401)", async () => {
    const core = await newKey('write', '/api/hub/keys');
    expect((await whoami(a, core.key, 'core')).status).toBe(200);
    const res = expectProblem(await whoami(a, core.key, 'knowledge'), 401, 'api_key_invalid');
    expect(res.detail).toMatch(/core/);
  });

  it('records the last use, at most once a minute, off the request path', async () => {
    const { id, key } = await newKey('read');
    await whoami(a, key).expect(200);
    const lastUsed = async () =>
      (await a.services.orm.em.fork().findOneOrFail(ApiKey, { id }, { filters: false })).lastUsedAt;
    const first = await eventually(lastUsed, { what: 'lastUsedAt' });
    // Each use within the minute either skips at once (the instance wrote this minute) or asks Redis for the
    // minute's slot: watched, so the test knows every such answer came back before it looks at the row again.
    const slot = `apikeys:used:${id}`;
    const spies = [...new Set([a.services.redis, b.services.redis])].map((redis) => jest.spyOn(redis, 'set'));
    try {
      await whoami(b, key).expect(200);
      await whoami(a, key).expect(200);
      const asked = spies.flatMap((spy) =>
        spy.mock.calls.flatMap((call, i) =>
          String(call[0]).endsWith(slot) ? [spy.mock.results[i].value as Promise<unknown>] : [],
        ),
      );
      // B asked once and found the slot taken (so it writes nothing); A did not ask (it wrote this minute).
      expect(asked).toHaveLength(1);
      expect(await asked[0]).toBeNull();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(await lastUsed()).toEqual(first);
    const listed = await a.http.get('/api/knowledge/keys?limit=200').set(owner.auth);
    expect(listed.body.items.find((k: { id: string }) => k.id === id).lastUsedAt).toBe(first!.toISOString());
  });

  it('stops a deleted key at once on every instance', async () => {
    const { id, key } = await newKey('write');
    // Both instances have resolved (and memoised) the key.
    await whoami(a, key).expect(200);
    await whoami(b, key).expect(200);
    await a.http.delete(`/api/knowledge/keys/${id}`).set(owner.auth).expect(204);
    // Timed from the answer (the event is published before it): the request's own time is the machine's load.
    const t0 = Date.now();
    expectProblem(await whoami(a, key), 401, 'api_key_invalid');
    await eventually(async () => (await whoami(b, key)).status === 401, {
      timeoutMs: 1000,
      intervalMs: 10,
      what: 'the key refused on instance B',
    });
    expect(Date.now() - t0).toBeLessThan(1000);
    expectProblem(await make(key), 401, 'api_key_invalid');
  });

  it('refuses the key once its organisation loses the module or is suspended (403)', async () => {
    const { key } = await newKey('write');
    const em = a.services.orm.em.fork();
    const free = await em.findOneOrFail(Plan, { tier: 'free' });
    const entitlements = free.entitlements;
    try {
      await em.nativeUpdate(
        Plan,
        { tier: 'free' },
        { entitlements: { ...entitlements, modules: entitlements.modules.filter((m) => m !== 'knowledge') } },
      );
      await a.services.entitlements.invalidateAll();
      expectProblem(await whoami(a, key), 403, 'module_not_entitled');
      await eventually(async () => (await whoami(b, key)).status === 403, {
        timeoutMs: 2000,
        what: 'refused on instance B',
      });
    } finally {
      await em.nativeUpdate(Plan, { tier: 'free' }, { entitlements });
      await a.services.entitlements.invalidateAll();
    }
    expect((await whoami(a, key)).status).toBe(200);

    await a.http
      .post(`/admin/organizations/${owner.tenantId}/suspend`)
      .set(admin.auth)
      .send({ reason: 'test' })
      .expect(200);
    expectProblem(await whoami(a, key), 403, 'organization_suspended');
    await a.http.post(`/admin/organizations/${owner.tenantId}/unsuspend`).set(admin.auth).expect(200);
    expect((await whoami(a, key)).status).toBe(200);
  });

  it('documents the key, its scope and its problems in OpenAPI', async () => {
    const doc = (await a.http.get('/openapi.json')).body;
    const read = doc.paths['/test-knowledge/whoami'].get;
    const write = doc.paths['/test-knowledge/things'].post;
    expect(read.security).toEqual([{ serverApiKey: [] }]);
    expect(read.responses['401'].description).toContain('api_key_invalid');
    expect(read.responses['403'].description).toMatch(
      /api_key_scope_missing.*scope read.*module_not_entitled.*module knowledge/,
    );
    expect(write.responses['403'].description).toContain('scope write');
    expect(doc.components.securitySchemes.serverApiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Server-API-Key',
    });
  });
});
