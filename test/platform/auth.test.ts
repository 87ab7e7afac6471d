import jwt from 'jsonwebtoken';
import { createAccount, type Account } from '../support/factories';
import { startStack, TEST_JWT_SECRET, type TestStack } from '../support/stack';

/** The authentication chain of every JWT route, exercised on GET /users/me. */
describe('access tokens', () => {
  let stack: TestStack;
  let account: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    account = await createAccount(stack);
  });
  afterAll(() => stack.close());

  const claims = () => ({
    userId: account.user.id,
    tenantId: account.tenantId,
    sid: 'session',
    jti: '0190c1d2-0000-7000-8000-000000000000',
    iat: Math.floor(Date.now() / 1000),
  });

  async function expect401(authorization: string | undefined, code: string) {
    const req = stack.http.get('/users/me');
    const res = authorization ? await req.set('Authorization', authorization) : await req;
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.body).toMatchObject({ status: 401, code, type: `/problems/${code}` });
  }

  it('accepts a valid token', async () => {
    const res = await stack.http.get('/users/me').set(account.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: account.user.id, email: account.email });
  });

  it('refuses a missing token', () => expect401(undefined, 'token_missing'));

  it('refuses a token signed with another secret', () =>
    expect401(
      `Bearer ${jwt.sign({ ...claims(), exp: claims().iat + 60 }, 'another-secret-another-secret-another-secret', { issuer: 'platform-suite' })}`,
      'token_invalid',
    ));

  it('refuses alg none', () => {
    const unsigned = jwt.sign({ ...claims(), exp: claims().iat + 60 }, '', {
      algorithm: 'none',
      issuer: 'platform-suite',
    });
    return expect401(`Bearer ${unsigned}`, 'token_invalid');
  });

  it('refuses HS512 even with the right secret (only HS256 is accepted)', () =>
    expect401(
      `Bearer ${jwt.sign({ ...claims(), exp: claims().iat + 60 }, TEST_JWT_SECRET, { algorithm: 'HS512', issuer: 'platform-suite' })}`,
      'token_invalid',
    ));

  it('refuses an expired token', () =>
    expect401(
      `Bearer ${jwt.sign({ ...claims(), iat: claims().iat - 120, exp: claims().iat - 60 }, TEST_JWT_SECRET, { issuer: 'platform-suite' })}`,
      'token_expired',
    ));

  it('refuses a token without the expected claims', () =>
    expect401(
      `Bearer ${jwt.sign({ sub: 'x', exp: claims().iat + 60 }, TEST_JWT_SECRET, { issuer: 'platform-suite' })}`,
      'token_invalid',
    ));

  it('refuses garbage', () => expect401('Bearer not.a.jwt', 'token_invalid'));

  it('refuses a revoked token (by jti, by session, by user) on every instance', async () => {
    const second = await startStack({ sharing: stack, workers: false });
    try {
      const a = await createAccount(stack);
      const c = stack.services.tokens.verifyAccess(a.tokens.accessToken);
      expect((await second.http.get('/users/me').set(a.auth)).status).toBe(200);
      await stack.services.revocations.revokeToken(c);
      const res = await second.http.get('/users/me').set(a.auth);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('token_revoked');

      const b = await createAccount(stack);
      await stack.services.revocations.revokeSession(stack.services.tokens.verifyAccess(b.tokens.accessToken).sid);
      expect((await second.http.get('/users/me').set(b.auth)).body.code).toBe('token_revoked');

      const d = await createAccount(stack);
      await stack.services.revocations.revokeUser(d.user.id);
      expect((await second.http.get('/users/me').set(d.auth)).body.code).toBe('token_revoked');
      // A token issued after the revocation works.
      const fresh = stack.services.tokens.signAccess({
        userId: d.user.id,
        tenantId: d.tenantId,
        sid: 'another-session',
      });
      expect((await second.http.get('/users/me').set('Authorization', `Bearer ${fresh.token}`)).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});
