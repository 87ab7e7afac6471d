import { RefreshToken } from '../../entities/identity/session';
import { REFRESH_REUSE_GRACE_SECONDS } from '../../domain/identity/refreshSession';
import { hashToken } from '../../lib/tokens';
import { addMember, bearer, createAccount, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

describe('/orgs: mine, create, switch', () => {
  let stack: TestStack;
  let a: Account;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits, workers: false });
    a = await createAccount(stack, { displayName: 'Alice' });
  });
  afterAll(() => stack.close());

  it('creates an organisation owned by me, with the default roles and a free subscription', async () => {
    const a = await createAccount(stack);
    const res = await stack.http.post('/orgs').set(a.auth).send({ name: '  Acme Labs ' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/orgs/${res.body.id}`);
    expect(res.body).toMatchObject({
      name: 'Acme Labs',
      slug: expect.stringMatching(/^acme-labs-/),
      suspended: false,
      active: false,
      roles: [{ key: 'owner', name: 'Owner' }],
    });

    const list = await stack.http.get('/orgs').set(a.auth);
    expect(list.status).toBe(200);
    expect(list.body.items.map((o: { id: string }) => o.id)).toEqual([a.tenantId, res.body.id]);
    expect(list.body.items.map((o: { active: boolean }) => o.active)).toEqual([true, false]);

    // Its subscription and roles exist: after switching, billing and RBAC answer for it.
    const switched = await stack.http.post(`/orgs/${res.body.id}/switch`).set(a.auth);
    const auth = bearer(switched.body.accessToken);
    expect((await stack.http.get('/api/entitlements/me').set(auth)).body).toMatchObject({
      tenantId: res.body.id,
      tier: 'free',
    });
    const roles = await stack.http.get('/rbac/roles').set(auth);
    expect(roles.status).toBe(200);
    expect(roles.body.items.map((r: { key: string }) => r.key)).toEqual(['owner', 'admin', 'member']);
  });

  it('refuses bad input', async () => {
    expectFieldErrors(await stack.http.post('/orgs').set(a.auth).send({}), 'name');
    expectFieldErrors(await stack.http.post('/orgs').set(a.auth).send({ name: '   ' }), 'name');
    expectFieldErrors(
      await stack.http
        .post('/orgs')
        .set(a.auth)
        .send({ name: 'x'.repeat(121) }),
      'name',
    );
    expectFieldErrors(
      await stack.http.post('/orgs').set(a.auth).send({ name: 'Ok', tenantId: a.tenantId }),
      'tenantId',
    );
    expectProblem(await stack.http.post('/orgs').send({ name: 'Ok' }), 401, 'token_missing');
    expectProblem(await stack.http.get('/orgs?limit=500').set(a.auth), 400, 'validation_failed');
  });

  it('switch answers a token pair for the other organisation and changes which tenant is visible', async () => {
    const b = await createAccount(stack);
    const member = await addMember(stack, b, 'admin');
    // member is signed in to b's organisation; their own personal one is the other membership.
    const orgs = await stack.http.get('/orgs').set(member.auth);
    const personal = orgs.body.items.find((o: { active: boolean }) => !o.active).id as string;

    const before = await stack.http.get('/rbac/members').set(member.auth);
    expect(before.body.items.map((m: { userId: string }) => m.userId).sort()).toEqual(
      [b.user.id, member.user.id].sort(),
    );

    const res = await stack.http.post(`/orgs/${personal}/switch`).set(member.auth);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresIn: 900,
      tokenType: 'Bearer',
    });
    const claims = stack.services.tokens.verifyAccess(res.body.accessToken);
    expect(claims).toMatchObject({
      userId: member.user.id,
      tenantId: personal,
      sid: stack.services.tokens.verifyAccess(member.tokens.accessToken).sid,
    });

    const after = await stack.http.get('/rbac/members').set(bearer(res.body.accessToken));
    expect(after.body.items.map((m: { userId: string }) => m.userId)).toEqual([member.user.id]);

    // A refresh of the new pair stays in the new organisation.
    const refreshed = await stack.http.post('/auth/refresh').send({ refreshToken: res.body.refreshToken });
    expect(stack.services.tokens.verifyAccess(refreshed.body.accessToken).tenantId).toBe(personal);
  });

  it('switching in one tab does not sign the other tabs out: their tokens go on in their organisation, and a real reuse still ends the session', async () => {
    const b = await createAccount(stack);
    const member = await addMember(stack, b, 'admin');
    const personal = (await stack.http.get('/orgs').set(member.auth)).body.items.find(
      (o: { active: boolean }) => !o.active,
    ).id as string;
    // Two tabs of one browser share the session's pair; tab A switches to the personal organisation.
    const tabA = await stack.http.post(`/orgs/${personal}/switch`).set(member.auth).expect(200);

    // Tab B is still signed in to b's organisation: its access token works, its refresh token rotates there.
    const members = await stack.http.get('/rbac/members').set(member.auth).expect(200);
    expect(members.body.items.map((m: { userId: string }) => m.userId).sort()).toEqual(
      [b.user.id, member.user.id].sort(),
    );
    const tabB = await stack.http.post('/auth/refresh').send({ refreshToken: member.tokens.refreshToken }).expect(200);
    expect(stack.services.tokens.verifyAccess(tabB.body.accessToken)).toMatchObject({
      tenantId: b.tenantId,
      sid: stack.services.tokens.verifyAccess(tabA.body.accessToken).sid,
    });
    await stack.http.get('/rbac/members').set(bearer(tabB.body.accessToken)).expect(200);
    // Tab A goes on in the personal organisation.
    const tabANext = await stack.http.post('/auth/refresh').send({ refreshToken: tabA.body.refreshToken }).expect(200);
    expect(stack.services.tokens.verifyAccess(tabANext.body.accessToken).tenantId).toBe(personal);

    // Reuse detection is intact: tab B's rotated token presented again after the grace period ends the whole session.
    await stack.services.orm.em
      .fork()
      .nativeUpdate(
        RefreshToken,
        { tokenHash: hashToken(member.tokens.refreshToken) },
        { usedAt: new Date(Date.now() - (REFRESH_REUSE_GRACE_SECONDS + 1) * 1000) },
      );
    expectProblem(
      await stack.http.post('/auth/refresh').send({ refreshToken: member.tokens.refreshToken }),
      401,
      'refresh_token_reused',
    );
    expectProblem(
      await stack.http.post('/auth/refresh').send({ refreshToken: tabANext.body.refreshToken }),
      401,
      'refresh_token_invalid',
    );
    expectProblem(await stack.http.get('/auth/me').set(bearer(tabANext.body.accessToken)), 401, 'token_revoked');
    expectProblem(await stack.http.get('/auth/me').set(bearer(tabB.body.accessToken)), 401, 'token_revoked');
  });

  it('switch to an organisation I do not belong to is 404', async () => {
    const stranger = await createAccount(stack);
    expectProblem(await stack.http.post(`/orgs/${stranger.tenantId}/switch`).set(a.auth), 404, 'not_found');
    expectProblem(
      await stack.http.post('/orgs/00000000-0000-7000-8000-000000000000/switch').set(a.auth),
      404,
      'not_found',
    );
    expectProblem(await stack.http.post('/orgs/not-a-uuid/switch').set(a.auth), 400, 'validation_failed');
    expect((await stack.http.get('/users/me').set(a.auth)).status).toBe(200);
  });
});
