import { AuditEntry } from '../../entities/platform/audit';
import { addMember, bearer, createAccount, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

describe('/orgs/{id}/members', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits, workers: false });
  });
  afterAll(() => stack.close());

  const members = (owner: Account, auth = owner.auth) => stack.http.get(`/orgs/${owner.tenantId}/members`).set(auth);
  const setRole = (org: Account, userId: string, role: string, auth: Account['auth']) =>
    stack.http.patch(`/orgs/${org.tenantId}/members/${userId}/role`).set(auth).send({ role });
  const remove = (org: Account, userId: string, auth: Account['auth']) =>
    stack.http.delete(`/orgs/${org.tenantId}/members/${userId}`).set(auth);
  const keysOf = (res: { body: { items: { userId: string; roles: { key: string }[] }[] } }, userId: string) =>
    res.body.items.find((m) => m.userId === userId)?.roles.map((r) => r.key);

  it('lists members with their roles to those who may read them', async () => {
    const owner = await createAccount(stack, { displayName: 'Owner' });
    const admin = await addMember(stack, owner, 'admin');
    const member = await addMember(stack, owner, 'member');
    const res = await members(owner);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      {
        userId: owner.user.id,
        email: owner.email,
        displayName: 'Owner',
        roles: [{ id: expect.any(String), key: 'owner', name: 'Owner' }],
        joinedAt: expect.any(String),
      },
      expect.objectContaining({ userId: admin.user.id, roles: [expect.objectContaining({ key: 'admin' })] }),
      expect.objectContaining({ userId: member.user.id, roles: [expect.objectContaining({ key: 'member' })] }),
    ]);
    expect((await members(owner, admin.auth)).status).toBe(200);
    expectProblem(await members(owner, member.auth), 403, 'permission_denied');
    const paged = await stack.http.get(`/orgs/${owner.tenantId}/members?limit=2`).set(owner.auth);
    const next = await stack.http
      .get(`/orgs/${owner.tenantId}/members?limit=2&cursor=${paged.body.nextCursor}`)
      .set(owner.auth);
    expect([...paged.body.items, ...next.body.items].map((m: { userId: string }) => m.userId)).toEqual([
      owner.user.id,
      admin.user.id,
      member.user.id,
    ]);
    expect(next.body.nextCursor).toBeNull();
  });

  it('works on any organisation I belong to, not only the active one of my token', async () => {
    const owner = await createAccount(stack);
    const member = await addMember(stack, owner, 'admin');
    // member's token is for owner's organisation; their personal organisation is listed by path.
    const orgs = await stack.http.get('/orgs').set(member.auth);
    const personal = orgs.body.items.find((o: { active: boolean }) => !o.active).id as string;
    const res = await stack.http.get(`/orgs/${personal}/members`).set(member.auth);
    expect(res.body.items.map((m: { userId: string }) => m.userId)).toEqual([member.user.id]);
  });

  it('hides another organisation entirely: its members, invitations and changes are 404 to non-members', async () => {
    const a = await createAccount(stack);
    const b = await createAccount(stack);
    const bMember = await addMember(stack, b, 'member');
    const invite = await stack.http
      .post(`/orgs/${b.tenantId}/invite`)
      .set(b.auth)
      .send({ email: 'someone@example.test', role: 'member' });
    expect(invite.status).toBe(201);
    const attempts = [
      stack.http.get(`/orgs/${b.tenantId}/members`).set(a.auth),
      stack.http.get(`/orgs/${b.tenantId}/invites`).set(a.auth),
      stack.http.post(`/orgs/${b.tenantId}/invite`).set(a.auth).send({ email: 'x@example.test', role: 'member' }),
      stack.http.delete(`/orgs/${b.tenantId}/invites/${invite.body.id}`).set(a.auth),
      setRole(b, bMember.user.id, 'admin', a.auth),
      remove(b, bMember.user.id, a.auth),
      stack.http.post(`/orgs/${b.tenantId}/switch`).set(a.auth),
    ];
    for (const res of await Promise.all(attempts)) expectProblem(res, 404, 'not_found');
    // Nothing changed in B.
    expect(keysOf(await members(b), bMember.user.id)).toEqual(['member']);
    expect((await stack.http.get(`/orgs/${b.tenantId}/invites`).set(b.auth)).body.items).toHaveLength(1);
    // And B's ids are unknown in A's organisation too.
    expectProblem(await setRole(a, bMember.user.id, 'admin', a.auth), 404, 'not_found');
    expectProblem(
      await stack.http.delete(`/orgs/${a.tenantId}/invites/${invite.body.id}`).set(a.auth),
      404,
      'not_found',
    );
  });

  it("changes a member's role, effective on their next request", async () => {
    const owner = await createAccount(stack);
    const member = await addMember(stack, owner, 'member');
    expectProblem(await members(owner, member.auth), 403, 'permission_denied');
    const res = await setRole(owner, member.user.id, 'admin', owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: member.user.id, roles: [{ key: 'admin' }] });
    expect((await members(owner, member.auth)).status).toBe(200);
    const audit = await stack.services.orm.em
      .fork()
      .findOne(AuditEntry, { action: 'org.member_roles_changed', targetId: member.user.id });
    expect(audit).toMatchObject({
      actorId: owner.user.id,
      tenantId: owner.tenantId,
      data: { before: ['member'], after: ['admin'] },
    });
  });

  it('lets only owners grant or revoke owner, and never removes the last owner', async () => {
    const owner = await createAccount(stack);
    const admin = await addMember(stack, owner, 'admin');
    const member = await addMember(stack, owner, 'member');
    expectProblem(await setRole(owner, member.user.id, 'owner', admin.auth), 403, 'owner_required');
    expectProblem(await setRole(owner, member.user.id, 'admin', member.auth), 403, 'permission_denied');
    expectProblem(await setRole(owner, owner.user.id, 'admin', owner.auth), 409, 'last_owner');
    expectProblem(await setRole(owner, owner.user.id, 'member', admin.auth), 403, 'owner_required');

    expect((await setRole(owner, admin.user.id, 'owner', owner.auth)).status).toBe(200);
    // Two owners now: one may step down, but not both.
    expect((await setRole(owner, owner.user.id, 'admin', owner.auth)).status).toBe(200);
    expectProblem(await setRole(owner, admin.user.id, 'member', admin.auth), 409, 'last_owner');
    expect(keysOf(await members(owner, admin.auth), admin.user.id)).toEqual(['owner']);
  });

  it('keeps an owner when the two owners step down at the same time', async () => {
    const owner = await createAccount(stack);
    const second = await addMember(stack, owner, 'owner');
    const [x, y] = await Promise.all([
      setRole(owner, owner.user.id, 'admin', owner.auth),
      setRole(owner, second.user.id, 'admin', second.auth),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    expect([x.body.code, y.body.code]).toContain('last_owner');
    const list = await members(owner);
    expect(
      list.body.items.filter((m: { roles: { key: string }[] }) => m.roles.some((r) => r.key === 'owner')),
    ).toHaveLength(1);
  });

  it('refuses bad input with field errors', async () => {
    const owner = await createAccount(stack);
    const member = await addMember(stack, owner, 'member');
    expectFieldErrors(await setRole(owner, member.user.id, 'no-such-role', owner.auth), 'role');
    expectFieldErrors(await setRole(owner, member.user.id, 'Bad Key!', owner.auth), 'role');
    expectFieldErrors(
      await stack.http.patch(`/orgs/${owner.tenantId}/members/${member.user.id}/role`).set(owner.auth).send({}),
      'role',
    );
    expectFieldErrors(
      await stack.http.patch(`/orgs/${owner.tenantId}/members/nope/role`).set(owner.auth).send({ role: 'admin' }),
      'userId',
    );
    expectProblem(await setRole(owner, '00000000-0000-7000-8000-000000000000', 'admin', owner.auth), 404, 'not_found');
    expectFieldErrors(await stack.http.get('/orgs/nope/members').set(owner.auth), 'id');
    expectFieldErrors(await stack.http.get(`/orgs/${owner.tenantId}/members?cursor=1`).set(owner.auth), 'cursor');
    expectFieldErrors(await stack.http.get(`/orgs/${owner.tenantId}/invites?limit=x`).set(owner.auth), 'limit');
    expectFieldErrors(await stack.http.delete(`/orgs/${owner.tenantId}/members/nope`).set(owner.auth), 'userId');
    expectProblem(await remove(owner, '00000000-0000-7000-8000-000000000000', owner.auth), 404, 'not_found');
  });

  it('removes a member: their token for the organisation stops at once and a refresh moves them elsewhere', async () => {
    const owner = await createAccount(stack);
    const admin = await addMember(stack, owner, 'admin');
    const member = await addMember(stack, owner, 'member');
    expectProblem(await remove(owner, admin.user.id, member.auth), 403, 'permission_denied');
    expectProblem(await remove(owner, owner.user.id, admin.auth), 403, 'owner_required');

    expect((await remove(owner, member.user.id, admin.auth)).status).toBe(204);
    expectProblem(await stack.http.get('/auth/me').set(member.auth), 401, 'token_revoked');
    const refreshed = await stack.http.post('/auth/refresh').send({ refreshToken: member.tokens.refreshToken });
    expect(refreshed.status).toBe(200);
    const claims = stack.services.tokens.verifyAccess(refreshed.body.accessToken);
    expect(claims.tenantId).not.toBe(owner.tenantId);
    const me = await stack.http.get('/auth/me').set(bearer(refreshed.body.accessToken));
    expect(me.body.memberships.map((m: { id: string }) => m.id)).toEqual([claims.tenantId]);
    expect((await members(owner)).body.items.map((m: { userId: string }) => m.userId)).toEqual([
      owner.user.id,
      admin.user.id,
    ]);
    expectProblem(await remove(owner, member.user.id, owner.auth), 404, 'not_found');
  });

  it('lets a member leave, but not the last owner', async () => {
    const owner = await createAccount(stack);
    const member = await addMember(stack, owner, 'member');
    expect((await remove(owner, member.user.id, member.auth)).status).toBe(204);
    expect(
      await stack.services.orm.em.fork().count(AuditEntry, { action: 'org.member_left', actorId: member.user.id }),
    ).toBe(1);
    expectProblem(await remove(owner, owner.user.id, owner.auth), 409, 'last_owner');
  });
});
