import { TokenRevocation } from '../../entities/identity/revocation';
import { startSession } from '../../domain/identity/sessions';
import { addMember, bearer, createAccount, type Account } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';
import { CLEARED_MEMO_MS } from '../../lib/revocation';

/**
 * Revocations live in PostgreSQL; Redis only caches them. A Redis that lost its data (a restart without
 * persistence, a failover) must not bring a revoked token back, on any dyno.
 */
describe('revocations outlive an empty Redis', () => {
  let stack: TestStack;
  let other: TestStack;
  let root: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    other = await startStack({ sharing: stack, workers: false });
    root = await createAccount(stack, { platformAdmin: true });
  });
  afterAll(async () => {
    await other.close();
    await stack.close();
  });

  const me = (s: TestStack, token: string) => s.http.get('/users/me').set(bearer(token));
  const flushRedis = async () => {
    const keys = await stack.services.redis.keys(`${stack.config.REDIS_NAMESPACE}:*`);
    if (keys.length) await stack.services.redis.del(...keys);
  };

  it('keeps logged-out, ended, disabled and removed tokens refused after Redis lost everything', async () => {
    const loggedOut = await createAccount(stack);
    await stack.http.post('/auth/logout').set(loggedOut.auth).expect(204);

    const endedElsewhere = await createAccount(stack);
    const device = await startSession(
      stack.services,
      stack.services.orm.em.fork(),
      endedElsewhere.user,
      endedElsewhere.tenantId,
    );
    const { sid } = stack.services.tokens.verifyAccess(endedElsewhere.tokens.accessToken);
    await stack.http.delete(`/users/me/sessions/${sid}`).set(bearer(device.accessToken)).expect(204);

    const disabled = await createAccount(stack);
    await stack.http.post(`/admin/users/${disabled.user.id}/disable`).set(root.auth).expect(200);

    const owner = await createAccount(stack);
    const removed = await addMember(stack, owner);
    await stack.http.delete(`/orgs/${owner.tenantId}/members/${removed.user.id}`).set(owner.auth).expect(204);

    const revoked = [loggedOut, endedElsewhere, disabled, removed].map((a) => a.tokens.accessToken);
    const valid = (await createAccount(stack)).tokens.accessToken;
    for (const token of revoked) expect((await me(other, token)).body.code).toBe('token_revoked');

    await flushRedis();
    for (const dyno of [stack, other]) {
      for (const token of revoked) expect((await me(dyno, token)).body.code).toBe('token_revoked');
      expect((await me(dyno, valid)).status).toBe(200);
    }
    // The cache was rebuilt from PostgreSQL, which holds one record per revocation.
    expect(await stack.services.redis.exists(stack.services.key('rv', 'warm'))).toBe(1);
    expect(
      await stack.services.orm.em
        .fork()
        .count(TokenRevocation, { kind: { $in: ['jti', 'sid', 'user', 'member'] }, expiresAt: { $gt: new Date() } }),
    ).toBeGreaterThanOrEqual(5);
  });

  it('reuses "not revoked" for a second at most, and forgets it on every dyno as soon as any revocation is made', async () => {
    const account = await createAccount(stack);
    const claims = stack.services.tokens.verifyAccess(account.tokens.accessToken);
    expect((await me(other, account.tokens.accessToken)).status).toBe(200);
    // Remembered: even a revocation written behind the store's back (straight into Redis) is not seen...
    const entry = stack.services.key('rv', 'jti', claims.jti);
    await stack.services.redis.set(entry, String(Date.now()), 'PX', 60_000);
    expect(await other.services.revocations.isRevoked(claims)).toBe(false);
    // ...until the memo's second is over.
    const started = Date.now();
    await eventually(() => other.services.revocations.isRevoked(claims), { intervalMs: 5, what: 'the memo to expire' });
    expect(Date.now() - started).toBeLessThan(CLEARED_MEMO_MS + 500);
    expect((await me(other, account.tokens.accessToken)).body.code).toBe('token_revoked');

    // A real revocation on one dyno reaches the other's memo by pub/sub, well before the second is over.
    // Remembered, then revoked in-process as ending a session does: no request's time (the machine's load) in the measure.
    const next = await createAccount(stack);
    const nextClaims = stack.services.tokens.verifyAccess(next.tokens.accessToken);
    expect(await other.services.revocations.isRevoked(nextClaims)).toBe(false);
    const rememberedAt = Date.now();
    await stack.services.revocations.revokeSession(nextClaims.sid);
    await eventually(() => other.services.revocations.isRevoked(nextClaims), { intervalMs: 5, what: 'the event' });
    expect(Date.now() - rememberedAt).toBeLessThan(CLEARED_MEMO_MS / 2);
    expect((await me(other, next.tokens.accessToken)).body.code).toBe('token_revoked');
  });

  it('never undoes a newer revocation when a rebuild read PostgreSQL before it', async () => {
    const account = await createAccount(stack);
    await flushRedis();
    // A token issued, then the user logged out everywhere, while another dyno rebuilds the cold cache.
    const [, revokedAfter] = await Promise.all([
      stack.services.revocations.isRevoked(stack.services.tokens.verifyAccess(account.tokens.accessToken)),
      stack.http.delete('/users/me/sessions').set(account.auth),
    ]);
    expect(revokedAfter.status).toBe(204);
    for (const dyno of [stack, other])
      expect((await me(dyno, account.tokens.accessToken)).body.code).toBe('token_revoked');
  });
});
