import { createAccount, type Account } from '../support/factories';
import { expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { inPool, readDocument } from '../guards/openapi';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * What a route answers to a request it was not declared for (api/http/routes.ts RouteTable, refuseBody): a method
 * its path does not take is 405 with Allow, a body on a route that takes none is 400; neither changes anything.
 */
describe('methods and bodies a route does not take', () => {
  let stack: TestStack;
  let account: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false, env: relaxedLimits });
    account = await createAccount(stack);
  });
  afterAll(() => stack.close());

  it('answers a method a path does not take with 405 method_not_allowed and Allow, before any guard', async () => {
    const res = await stack.http.delete('/auth/login');
    expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('POST');
    expect(res.body.detail).toBe('/auth/login does not take DELETE; it takes POST');
    // A path with a parameter; GET brings HEAD; an unknown path is still a 404.
    const room = await stack.http.post(`/rooms/${account.tenantId}`).set(account.auth);
    expectProblem(room, 405, 'method_not_allowed');
    expect(room.headers.allow).toBe('DELETE, GET, HEAD, PATCH');
    const head = await stack.http.head('/auth/login');
    expect({ status: head.status, allow: head.headers.allow }).toEqual({ status: 405, allow: 'POST' });
    expectProblem(await stack.http.delete('/auth/nowhere'), 404, 'route_not_found');
    // OPTIONS keeps Express's answer.
    expect((await stack.http.options('/auth/login')).headers.allow).toBe('POST');
  });

  it('every path of /openapi.json answers the methods it does not declare with 405 and exactly its own in Allow', async () => {
    const doc = await readDocument(stack);
    const byPath = new Map<string, Set<string>>();
    for (const op of doc.operations) byPath.set(op.path, (byPath.get(op.path) ?? new Set()).add(op.method));
    // A URL may match several templates (/api/addons/all and /api/addons/{id}): it takes the methods of all of them.
    const matchers = [...byPath].map(([path, methods]) => ({
      test: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
      methods,
    }));
    const wrong: string[] = [];
    await inPool([...byPath.keys()], 8, async (path) => {
      const url = path.replace(/\{(\w+)\}/g, 'x');
      const declared = new Set(matchers.filter((m) => m.test.test(url)).flatMap((m) => [...m.methods]));
      const other = METHODS.find((m) => !declared.has(m));
      if (!other) return;
      const res = await stack.http[other](url);
      const allow = [...declared]
        .map((m) => m.toUpperCase())
        .concat(declared.has('get') ? ['HEAD'] : [])
        .sort()
        .join(', ');
      if (res.status !== 405 || res.headers.allow !== allow || res.body.code !== 'method_not_allowed')
        wrong.push(
          `${other.toUpperCase()} ${path}: ${res.status} Allow ${res.headers.allow}, expected 405 Allow ${allow}`,
        );
    });
    expect(wrong).toEqual([]);
    expect(byPath.size).toBeGreaterThan(200);
  });

  it('refuses a body on a route that takes none (POST /auth/logout) with 400 body_not_allowed, and the session goes on', async () => {
    const signedIn = await createAccount(stack);
    for (const send of [
      () => stack.http.post('/auth/logout').set(signedIn.auth).send({ everywhere: true }),
      () => stack.http.post('/auth/logout').set(signedIn.auth).set('Content-Type', 'text/plain').send('bye'),
      () =>
        stack.http
          .post('/auth/logout')
          .set(signedIn.auth)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify({ pad: 'x'.repeat(5000) })),
      () => stack.http.get('/auth/me').set(signedIn.auth).set('Content-Type', 'application/json').send('{"q":1}'),
    ]) {
      const res = await send();
      expectProblem(res, 400, 'body_not_allowed');
      expect(res.body.detail).toMatch(/takes no request body/);
    }
    await stack.http.get('/auth/me').set(signedIn.auth).expect(200);
    // The signed-in guard answers first: a stranger's body is a 401, as without one.
    expectProblem(await stack.http.post('/auth/logout').send({ everywhere: true }), 401, 'token_missing');
  });

  it('takes no body, Content-Length: 0, blanks and {} as JSON as no body', async () => {
    for (const send of [
      (a: Account) => stack.http.post('/auth/logout').set(a.auth),
      (a: Account) => stack.http.post('/auth/logout').set(a.auth).set('Content-Length', '0'),
      (a: Account) => stack.http.post('/auth/logout').set(a.auth).set('Content-Type', 'application/json').send('{}'),
      (a: Account) =>
        stack.http
          .post('/auth/logout')
          .set(a.auth)
          .set('Content-Type', 'application/json; charset=utf-8')
          .send(' { } '),
      (a: Account) => stack.http.post('/auth/logout').set(a.auth).set('Content-Type', 'text/plain').send('  '),
    ]) {
      const signedIn = await createAccount(stack);
      expect((await send(signedIn)).status).toBe(204);
      expectProblem(await stack.http.get('/auth/me').set(signedIn.auth), 401, 'token_revoked');
    }
  });
});
