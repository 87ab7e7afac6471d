import { AuditEntry } from '../../entities/identity/audit';
import { User } from '../../entities/identity/user';
import { createAccount, uniqueEmail, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem, relaxedLimits } from '../support/identity';
import { startStack, TEST_INTERNAL_SECRET, type TestStack } from '../support/stack';

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
    expect(res.body).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 900, tokenType: 'Bearer' });
    const claims = stack.services.tokens.verifyAccess(res.body.accessToken);
    expect(claims).toMatchObject({ userId: account.user.id, tenantId: account.tenantId });
    const sessions = await stack.http.get('/users/me/sessions').set('Authorization', `Bearer ${res.body.accessToken}`);
    expect(sessions.body.items.find((s: { current: boolean }) => s.current)).toMatchObject({ id: claims.sid, userAgent: 'jest-device', organizationId: account.tenantId });
    const audit = await stack.services.orm.em.fork().findOne(AuditEntry, { action: 'auth.login', actorId: account.user.id });
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
    expectProblem(await stack.http.post('/auth/login').set('Content-Type', 'application/json').send('{"email":'), 400, 'malformed_json');
  });
});

describe('login rate limits', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '3' }, workers: false });
  });
  afterAll(() => stack.close());

  it('throttles failures per (account, address): the owner still signs in from elsewhere', async () => {
    const a = await createAccount(stack);
    const from = (ip: string) => stack.http.post('/auth/login').set('X-Forwarded-For', ip);
    for (let i = 0; i < 3; i++) expectProblem(await from('10.0.0.1').send({ email: a.email, password: 'wrong-password' }), 401, 'invalid_credentials');
    const limited = await from('10.0.0.1').send({ email: a.email.toUpperCase(), password: a.password });
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The owner, from another address, is not locked out; successes are not counted.
    for (let i = 0; i < 3; i++) expect((await from('10.0.0.2').send({ email: a.email, password: a.password })).status).toBe(200);
    // Another account is not affected by this one's counters.
    const b = await createAccount(stack);
    expect((await from('10.0.0.3').send({ email: b.email, password: b.password })).status).toBe(200);
  });

  it('throttles failures per account whatever the address only far higher (10x over 15 minutes)', async () => {
    const a = await createAccount(stack);
    const from = (ip: string) => stack.http.post('/auth/login').set('X-Forwarded-For', ip);
    const wrong = await Promise.all(Array.from({ length: 30 }, (_, i) => from(`10.3.${Math.floor(i / 3)}.1`).send({ email: a.email, password: 'wrong-password' })));
    expect(wrong.map((r) => r.status)).toEqual(Array(30).fill(401));
    expectProblem(await from('10.3.99.1').send({ email: a.email, password: a.password }), 429, 'rate_limited');
  });

  it('throttles the internal login bridge by the end user\'s reported address', async () => {
    const a = await createAccount(stack);
    const bridge = (ip: string, password: string) => stack.http.post('/auth/internal/login').set('X-Internal-Secret', TEST_INTERNAL_SECRET).send({ email: a.email, password, ip });
    for (let i = 0; i < 3; i++) expectProblem(await bridge('192.0.2.7', 'wrong-password'), 401, 'invalid_credentials');
    expectProblem(await bridge('192.0.2.7', a.password), 429, 'rate_limited');
    expect((await bridge('192.0.2.8', a.password)).status).toBe(200);
  });

  it('answers 429 per IP across accounts, and on forgot-password too', async () => {
    // A client address of its own (loopback is a trusted proxy), so the counters start at zero.
    const from = (path: string, ip: string) => stack.http.post(path).set('X-Forwarded-For', ip);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await from('/auth/login', '10.1.1.1').send({ email: uniqueEmail('spray'), password: 'whatever-password' })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const forgot: number[] = [];
    for (let i = 0; i < 4; i++) forgot.push((await from('/auth/forgot-password', '10.2.2.2').send({ email: uniqueEmail('spray') })).status);
    expect(forgot).toEqual([202, 202, 202, 429]);
    expectProblem(await from('/auth/forgot-password', '10.2.2.2').send({ email: uniqueEmail('spray') }), 429, 'rate_limited');
  });
});
