import { AuditEntry } from '../../entities/platform/audit';
import { RefreshToken } from '../../entities/identity/session';
import { User } from '../../entities/identity/user';
import { REFRESH_REUSE_GRACE_SECONDS } from '../../domain/identity/refreshSession';
import { hashToken } from '../../lib/tokens';
import { addMember, bearer, createAccount, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

describe('refresh, logout and the shared revocation list', () => {
  let stack: TestStack;
  let second: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits, workers: false });
    // Another dyno: it shares only PostgreSQL and Redis with the first.
    second = await startStack({ sharing: stack, workers: false });
  });
  afterAll(async () => {
    await second?.close();
    await stack?.close();
  });

  const refresh = (refreshToken: string, on = stack) => on.http.post('/auth/refresh').send({ refreshToken });
  const me = (token: string, on = stack) => on.http.get('/auth/me').set(bearer(token));

  it('rotates the refresh token on every use, keeping the session', async () => {
    const a = await createAccount(stack);
    const first = await refresh(a.tokens.refreshToken);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresIn: 900,
      tokenType: 'Bearer',
    });
    expect(first.body.refreshToken).not.toBe(a.tokens.refreshToken);
    const sid = (t: string) => stack.services.tokens.verifyAccess(t).sid;
    expect(sid(first.body.accessToken)).toBe(sid(a.tokens.accessToken));
    const next = await refresh(first.body.refreshToken, second);
    expect(next.status).toBe(200);
    expect((await me(next.body.accessToken)).status).toBe(200);
  });

  /** Moves a used refresh token's use back in time, past the grace period. */
  const usedLongAgo = (refreshToken: string) =>
    stack.services.orm.em
      .fork()
      .nativeUpdate(
        RefreshToken,
        { tokenHash: hashToken(refreshToken) },
        { usedAt: new Date(Date.now() - (REFRESH_REUSE_GRACE_SECONDS + 1) * 1000) },
      );

  it('answers parallel refreshes of one token with the same pair, on every instance, and keeps the session', async () => {
    const a = await createAccount(stack);
    const answers = await Promise.all(
      [0, 1, 2, 3, 4].map((i) => refresh(a.tokens.refreshToken, i % 2 ? second : stack)),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((r) => `${r.body.accessToken} ${r.body.refreshToken}`)).size).toBe(1);
    const [{ body: pair }] = answers;
    expect((await me(pair.accessToken, second)).status).toBe(200);
    expect((await refresh(pair.refreshToken)).status).toBe(200);
    expect(
      await stack.services.orm.em.fork().count(AuditEntry, { action: 'auth.refresh_reuse', actorId: a.user.id }),
    ).toBe(0);
  });

  it('treats a reused refresh token as stolen once the grace period is over: 401, and the whole session is revoked, access tokens included', async () => {
    const a = await createAccount(stack);
    const rotated = await refresh(a.tokens.refreshToken);
    expect(rotated.status).toBe(200);
    await usedLongAgo(a.tokens.refreshToken);
    expectProblem(await refresh(a.tokens.refreshToken), 401, 'refresh_token_reused');
    // The thief and the owner are both out: the newest refresh token and the access token stop working everywhere.
    expectProblem(await refresh(rotated.body.refreshToken), 401, 'refresh_token_invalid');
    expectProblem(await me(rotated.body.accessToken, second), 401, 'token_revoked');
    expectProblem(await me(a.tokens.accessToken), 401, 'token_revoked');
    expect(
      await stack.services.orm.em.fork().count(AuditEntry, { action: 'auth.refresh_reuse', actorId: a.user.id }),
    ).toBe(1);
  });

  it('refuses unknown refresh tokens and bad input', async () => {
    expectProblem(await refresh('an-unknown-refresh-token-value'), 401, 'refresh_token_invalid');
    expectFieldErrors(await stack.http.post('/auth/refresh').send({}), 'refreshToken');
    expectFieldErrors(await stack.http.post('/auth/refresh').send({ refreshToken: 12 }), 'refreshToken');
  });

  it('refuses to refresh a disabled account', async () => {
    const a = await createAccount(stack);
    await stack.services.orm.em.fork().nativeUpdate(User, { id: a.user.id }, { disabledAt: new Date() });
    expectProblem(await refresh(a.tokens.refreshToken), 401, 'account_disabled');
  });

  it('logout revokes the access token on another instance that shares only Redis and PostgreSQL, and ends the session', async () => {
    const a = await createAccount(stack);
    expect((await me(a.tokens.accessToken, second)).status).toBe(200);
    const out = await stack.http.post('/auth/logout').set(a.auth);
    expect(out.status).toBe(204);
    expectProblem(await me(a.tokens.accessToken, second), 401, 'token_revoked');
    expectProblem(await me(a.tokens.accessToken), 401, 'token_revoked');
    expectProblem(await refresh(a.tokens.refreshToken, second), 401, 'refresh_token_invalid');
    expectProblem(await stack.http.post('/auth/logout'), 401, 'token_missing');
    // Other sessions of the user go on.
    const other = await stack.http.post('/auth/login').send({ email: a.email, password: a.password });
    expect((await me(other.body.accessToken, second)).status).toBe(200);
    expect(await stack.services.orm.em.fork().count(AuditEntry, { action: 'auth.logout', actorId: a.user.id })).toBe(1);
  });
});

describe('GET /auth/me', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits, workers: false });
    owner = await createAccount(stack, { displayName: 'Owner' });
  });
  afterAll(() => stack.close());

  it('shows the profile, the active organisation with my roles and permissions, and all my memberships', async () => {
    const other = await createAccount(stack);
    // The member owns their personal organisation (from sign-up) and is a member of the other one, signed in there.
    const member = await addMember(stack, other, 'member');
    const res = await stack.http.get('/auth/me').set(member.auth);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      id: member.user.id,
      email: member.email,
      emailConfirmed: true,
      isPlatformAdmin: false,
    });
    expect(res.body.organization).toMatchObject({ id: other.tenantId, name: other.org.name, suspended: false });
    expect(res.body.roles.map((r: { key: string }) => r.key)).toEqual(['member']);
    expect(res.body.permissions).toContain('vr.play');
    expect(res.body.permissions).not.toContain('org.members.manage');
    expect(res.body.memberships).toHaveLength(2);
    const active = res.body.memberships.find((m: { active: boolean }) => m.active);
    expect(active).toMatchObject({ id: other.tenantId, roles: [{ key: 'member' }] });
    expect(res.body.memberships.find((m: { active: boolean }) => !m.active).roles[0].key).toBe('owner');

    const mine = await stack.http.get('/auth/me').set(owner.auth);
    expect(mine.body.permissions).toEqual(
      expect.arrayContaining(['org.members.manage', 'rbac.manage', 'billing.manage']),
    );
  });

  it('needs a token', async () => {
    expectProblem(await stack.http.get('/auth/me'), 401, 'token_missing');
  });
});
