import { AuditEntry } from '../../entities/platform/audit';
import { User } from '../../entities/identity/user';
import { createAccount, uniqueEmail, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

describe('POST /auth/login', () => {
  let stack: TestStack;
  let account: Account;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits, workers: false });
    account = await createAccount(stack, { email: uniqueEmail('Login') });
  });
  afterAll(() => stack.close());

  const login = (body: object) => stack.http.post('/auth/login').set('User-Agent', 'jest-device').send(body);

  it('answers a token pair for the account, whatever the case of the e-mail', async () => {
    const res = await login({ email: account.email.toUpperCase(), password: account.password });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresIn: 900,
      tokenType: 'Bearer',
    });
    const claims = stack.services.tokens.verifyAccess(res.body.accessToken);
    expect(claims).toMatchObject({ userId: account.user.id, tenantId: account.tenantId });
    const sessions = await stack.http.get('/users/me/sessions').set('Authorization', `Bearer ${res.body.accessToken}`);
    expect(sessions.body.items.find((s: { current: boolean }) => s.current)).toMatchObject({
      id: claims.sid,
      userAgent: 'jest-device',
      organizationId: account.tenantId,
    });
    const audit = await stack.services.orm.em
      .fork()
      .findOne(AuditEntry, { action: 'auth.login', actorId: account.user.id });
    expect(audit).not.toBeNull();
  });

  it('gives the same 401 invalid_credentials for an unknown e-mail and a wrong password', async () => {
    const unknown = await login({ email: uniqueEmail('nobody'), password: account.password });
    const wrong = await login({ email: account.email, password: 'not-the-password' });
    for (const res of [unknown, wrong]) expectProblem(res, 401, 'invalid_credentials');
    const strip = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });
    expect(strip(unknown.body)).toEqual(strip(wrong.body));
    const failures = await stack.services.orm.em.fork().find(AuditEntry, { action: 'auth.login_failed' });
    expect(failures.map((f) => f.data.email)).toEqual(expect.arrayContaining([account.email.toLowerCase()]));
  });

  it('tells a disabled account so only when the password is right', async () => {
    const disabled = await createAccount(stack);
    await stack.services.orm.em.fork().nativeUpdate(User, { id: disabled.user.id }, { disabledAt: new Date() });
    expectProblem(await login({ email: disabled.email, password: 'not-the-password' }), 401, 'invalid_credentials');
    expectProblem(await login({ email: disabled.email, password: disabled.password }), 401, 'account_disabled');
  });

  it('refuses bad input with field errors', async () => {
    expectFieldErrors(await login({ email: 'nope', password: 'x' }), 'email');
    expectFieldErrors(await login({ email: account.email }), 'password');
    expectFieldErrors(await login({ email: account.email, password: '' }), 'password');
    expectFieldErrors(await login({ email: account.email, password: 42 }), 'password');
    expectProblem(
      await stack.http.post('/auth/login').set('Content-Type', 'application/json').send('{"email":'),
      400,
      'malformed_json',
    );
  });
});
