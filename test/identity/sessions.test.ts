import { createAccount } from '../support/factories';
import { expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

describe('/users/me/sessions', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits, workers: false });
  });
  afterAll(() => stack.close());

  const signIn = async (email: string, password: string, agent: string) => {
    const res = await stack.http.post('/auth/login').set('User-Agent', agent).send({ email, password });
    return { ...res.body, auth: { Authorization: `Bearer ${res.body.accessToken}` } } as {
      accessToken: string;
      refreshToken: string;
      auth: { Authorization: string };
    };
  };

  it('lists my active sessions, newest first, marking the current one', async () => {
    const a = await createAccount(stack);
    const phone = await signIn(a.email, a.password, 'phone');
    const laptop = await signIn(a.email, a.password, 'laptop');
    const res = await stack.http.get('/users/me/sessions').set(phone.auth);
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.items.map((s: { userAgent: string | null }) => s.userAgent)).toEqual(['laptop', 'phone', null]);
    expect(res.body.items.map((s: { current: boolean }) => s.current)).toEqual([false, true, false]);
    expect(res.body.items[0]).toMatchObject({
      id: stack.services.tokens.verifyAccess(laptop.accessToken).sid,
      organizationId: a.tenantId,
      ip: expect.any(String),
    });

    const page = await stack.http.get('/users/me/sessions?limit=2').set(phone.auth);
    expect(page.body.items).toHaveLength(2);
    const rest = await stack.http.get(`/users/me/sessions?limit=2&cursor=${page.body.nextCursor}`).set(phone.auth);
    expect(rest.body).toMatchObject({ items: [{ userAgent: null }], nextCursor: null });
    expectProblem(await stack.http.get('/users/me/sessions?limit=0').set(phone.auth), 400, 'validation_failed');
    expectProblem(await stack.http.get('/users/me/sessions?cursor=nope').set(phone.auth), 400, 'validation_failed');
  });

  it("signs one session out; another user's session is 404", async () => {
    const a = await createAccount(stack);
    const b = await createAccount(stack);
    const phone = await signIn(a.email, a.password, 'phone');
    const phoneSid = stack.services.tokens.verifyAccess(phone.accessToken).sid;
    const bSid = stack.services.tokens.verifyAccess(b.tokens.accessToken).sid;

    expectProblem(await stack.http.delete(`/users/me/sessions/${bSid}`).set(a.auth), 404, 'not_found');
    expect((await stack.http.get('/users/me').set(b.auth)).status).toBe(200);
    expectProblem(await stack.http.delete('/users/me/sessions/not-a-uuid').set(a.auth), 400, 'validation_failed');

    expect((await stack.http.delete(`/users/me/sessions/${phoneSid}`).set(a.auth)).status).toBe(204);
    expectProblem(await stack.http.get('/users/me').set(phone.auth), 401, 'token_revoked');
    expectProblem(
      await stack.http.post('/auth/refresh').send({ refreshToken: phone.refreshToken }),
      401,
      'refresh_token_invalid',
    );
    expectProblem(await stack.http.delete(`/users/me/sessions/${phoneSid}`).set(a.auth), 404, 'not_found');
    expect((await stack.http.get('/users/me').set(a.auth)).status).toBe(200);
  });

  it('signs out everywhere, this session included', async () => {
    const a = await createAccount(stack);
    const phone = await signIn(a.email, a.password, 'phone');
    expect((await stack.http.delete('/users/me/sessions').set(a.auth)).status).toBe(204);
    for (const auth of [a.auth, phone.auth])
      expectProblem(await stack.http.get('/users/me').set(auth), 401, 'token_revoked');
    expectProblem(
      await stack.http.post('/auth/refresh').send({ refreshToken: phone.refreshToken }),
      401,
      'refresh_token_invalid',
    );
    const again = await signIn(a.email, a.password, 'phone');
    expect((await stack.http.get('/users/me/sessions').set(again.auth)).body.items).toHaveLength(1);
  });
});
