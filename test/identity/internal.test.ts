import { User } from '../../entities/identity/user';
import { bearer, createAccount, uniqueEmail } from '../support/factories';
import { expectFieldErrors, expectProblem, mailsTo, relaxedLimits } from '../support/identity';
import { startStack, TEST_INTERNAL_SECRET, type TestStack } from '../support/stack';

const bridges: [string, () => object][] = [
  ['/auth/internal/login', () => ({ email: uniqueEmail(), password: 'whatever-password' })],
  ['/auth/internal/register', () => ({ email: uniqueEmail(), password: 'whatever-password' })],
  ['/auth/internal/refresh', () => ({ refreshToken: 'r'.repeat(43) })],
  [
    '/auth/internal/oauth-sync',
    () => ({ provider: 'google', subject: '123', email: uniqueEmail(), emailVerified: true }),
  ],
];

describe('/auth/internal bridges', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits });
  });
  afterAll(() => stack.close());

  const call = (path: string, body: object, secret: string | null = TEST_INTERNAL_SECRET) => {
    const req = stack.http.post(path);
    return (secret === null ? req : req.set('X-Internal-Secret', secret)).send(body);
  };

  it('refuse calls without the secret or with a wrong one', async () => {
    for (const [path, body] of bridges) {
      expectProblem(await call(path, body(), null), 403, 'internal_secret_invalid');
      expectProblem(await call(path, body(), 'not-the-secret'), 403, 'internal_secret_invalid');
      expectProblem(await call(path, body(), `${TEST_INTERNAL_SECRET}x`), 403, 'internal_secret_invalid');
    }
    expect(await stack.services.orm.em.fork().count(User, {})).toBe(0);
  });

  it('login and refresh behave like the public routes', async () => {
    const a = await createAccount(stack);
    const res = await call('/auth/internal/login', {
      email: a.email,
      password: a.password,
      ip: '203.0.113.9',
      userAgent: 'gateway-client',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresIn: 900,
      tokenType: 'Bearer',
    });
    const sessions = await stack.http.get('/users/me/sessions').set(bearer(res.body.accessToken));
    expect(sessions.body.items[0]).toMatchObject({ ip: '203.0.113.9', userAgent: 'gateway-client', current: true });
    expectProblem(
      await call('/auth/internal/login', { email: a.email, password: 'wrong-password' }),
      401,
      'invalid_credentials',
    );

    const refreshed = await call('/auth/internal/refresh', { refreshToken: res.body.refreshToken });
    expect(refreshed.status).toBe(200);
    // Within the grace period the same token answers the same pair (reuse after it: see tokens.test.ts).
    expect((await call('/auth/internal/refresh', { refreshToken: res.body.refreshToken })).body).toEqual(
      refreshed.body,
    );
    expectFieldErrors(await call('/auth/internal/login', { email: 'x' }), 'email', 'password');
    expectFieldErrors(await call('/auth/internal/refresh', {}), 'refreshToken');
  });

  it('register creates and signs in an account, and says when the address is taken', async () => {
    const email = uniqueEmail('bridge');
    const res = await call('/auth/internal/register', {
      email,
      password: 'bridge-password',
      displayName: 'Bridge',
      emailConfirmed: true,
    });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.user).toMatchObject({ email, displayName: 'Bridge', emailConfirmed: true });
    expect((await stack.http.get('/auth/me').set(bearer(res.body.tokens.accessToken))).body.user.id).toBe(
      res.body.user.id,
    );
    expect(await mailsTo(stack, email)).toEqual([]);
    expectProblem(
      await call('/auth/internal/register', { email: email.toUpperCase(), password: 'bridge-password' }),
      409,
      'email_taken',
    );

    const unconfirmed = uniqueEmail('bridge');
    expect(
      (await call('/auth/internal/register', { email: unconfirmed, password: 'bridge-password' })).body.user
        .emailConfirmed,
    ).toBe(false);
    expect((await mailsTo(stack, unconfirmed)).map((m) => m.template)).toEqual(['confirm_email']);
    expectFieldErrors(await call('/auth/internal/register', { email: uniqueEmail(), password: 'short' }), 'password');
  });

  it('oauth-sync creates, then recognises, a provider identity, and links an existing account only with a verified address', async () => {
    const email = uniqueEmail('oauth');
    const created = await call('/auth/internal/oauth-sync', {
      provider: 'google',
      subject: 'g-1',
      email,
      emailVerified: true,
      displayName: 'Gina',
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      created: true,
      linked: false,
      user: { email, displayName: 'Gina', emailConfirmed: true },
      tokens: { tokenType: 'Bearer' },
    });
    const again = await call('/auth/internal/oauth-sync', {
      provider: 'google',
      subject: 'g-1',
      email,
      emailVerified: true,
    });
    expect(again.body).toMatchObject({ created: false, linked: false, user: { id: created.body.user.id } });
    // A password-less account cannot sign in with a password.
    expectProblem(
      await stack.http.post('/auth/login').send({ email, password: 'anything-at-all' }),
      401,
      'invalid_credentials',
    );

    const existing = await createAccount(stack);
    expectProblem(
      await call('/auth/internal/oauth-sync', {
        provider: 'github',
        subject: 'gh-1',
        email: existing.email,
        emailVerified: false,
      }),
      409,
      'email_not_verified',
    );
    const linked = await call('/auth/internal/oauth-sync', {
      provider: 'github',
      subject: 'gh-1',
      email: existing.email,
      emailVerified: true,
    });
    expect(linked.body).toMatchObject({ created: false, linked: true, user: { id: existing.user.id } });
    expect(stack.services.tokens.verifyAccess(linked.body.tokens.accessToken).tenantId).toBe(existing.tenantId);

    await stack.services.orm.em.fork().nativeUpdate(User, { id: existing.user.id }, { disabledAt: new Date() });
    expectProblem(
      await call('/auth/internal/oauth-sync', {
        provider: 'github',
        subject: 'gh-1',
        email: existing.email,
        emailVerified: true,
      }),
      401,
      'account_disabled',
    );
    expectFieldErrors(
      await call('/auth/internal/oauth-sync', { provider: 'Google!', subject: '', email: 'x' }),
      'provider',
      'subject',
      'email',
      'emailVerified',
    );
  });
});

describe('/auth/internal without INTERNAL_SECRET configured', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { ...relaxedLimits, INTERNAL_SECRET: '' }, workers: false });
  });
  afterAll(() => stack.close());

  it('refuses every call, whatever header is sent (fail-closed)', async () => {
    for (const [path, body] of bridges) {
      for (const secret of [undefined, '', TEST_INTERNAL_SECRET]) {
        const req = stack.http.post(path);
        expectProblem(
          await (secret === undefined ? req : req.set('X-Internal-Secret', secret)).send(body()),
          403,
          'internal_routes_disabled',
        );
      }
    }
  });
});
