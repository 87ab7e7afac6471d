import { permissionCatalogue } from '../../domain/identity/permissionCatalogue';
import { addMember, createAccount, uniqueEmail, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { setSubscription } from '../support/billing';

describe('/rbac', () => {
  let stack: TestStack;
  let owner: Account;
  let admin: Account;
  let member: Account;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits, workers: false });
    owner = await createAccount(stack);
    // Many invitations and members pile up in this organisation: a tier whose seats limit they stay within.
    await setSubscription(stack, owner.tenantId, { tier: 'business' });
    admin = await addMember(stack, owner, 'admin');
    member = await addMember(stack, owner, 'member');
  });
  afterAll(() => stack.close());

  const roleId = async (key: string, auth = owner.auth) =>
    ((await stack.http.get('/rbac/roles').set(auth)).body.items as { id: string; key: string }[]).find(
      (r) => r.key === key,
    )!.id;
  const createRole = (body: object, auth: Account['auth'] = owner.auth) =>
    stack.http.post('/rbac/roles').set(auth).send(body);

  it('lists the permission catalogue grouped by module', async () => {
    const res = await stack.http.get('/rbac/permissions').set(admin.auth);
    expect(res.status).toBe(200);
    expect(res.body.map((g: { module: string }) => g.module)).toEqual(Object.keys(permissionCatalogue));
    expect(res.body.find((g: { module: string }) => g.module === 'identity').permissions).toContainEqual({
      key: 'rbac.manage',
      description: permissionCatalogue.identity['rbac.manage'],
    });
    expectProblem(await stack.http.get('/rbac/permissions').set(member.auth), 403, 'permission_denied');
    expectProblem(await stack.http.get('/rbac/permissions'), 401, 'token_missing');
  });

  it('lists roles with their permissions and holders', async () => {
    const res = await stack.http.get('/rbac/roles').set(owner.auth);
    expect(res.status).toBe(200);
    expect(
      res.body.items
        .slice(0, 3)
        .map((r: { key: string; memberCount: number; system: boolean }) => [r.key, r.memberCount, r.system]),
    ).toEqual([
      ['owner', 1, true],
      ['admin', 1, true],
      ['member', 1, true],
    ]);
    expect(res.body.items[2].permissions).toContain('vr.play');
    expectProblem(await stack.http.get('/rbac/roles').set(member.auth), 403, 'permission_denied');
  });

  it('creates a custom role, edits its permissions (effective at once for holders), and deletes it once unused', async () => {
    const created = await createRole(
      { key: 'auditor', name: 'Auditor', description: 'Reads members', permissions: ['billing.read'] },
      admin.auth,
    );
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`/rbac/roles/${created.body.id}`);
    expect(created.body).toMatchObject({
      key: 'auditor',
      name: 'Auditor',
      description: 'Reads members',
      permissions: ['billing.read'],
      system: false,
    });
    expectProblem(await createRole({ key: 'auditor', name: 'Again', permissions: [] }), 409, 'role_key_taken');

    const auditor = await addMember(stack, owner, 'auditor');
    expectProblem(await stack.http.get('/rbac/members').set(auditor.auth), 403, 'permission_denied');
    const edited = await stack.http
      .put(`/rbac/roles/${created.body.id}/permissions`)
      .set(owner.auth)
      .send({ permissions: ['org.members.read', 'billing.read'] });
    expect(edited.status).toBe(200);
    expect(edited.body.permissions).toEqual(['billing.read', 'org.members.read']);
    expect((await stack.http.get('/rbac/members').set(auditor.auth)).status).toBe(200);

    expectProblem(await stack.http.delete(`/rbac/roles/${created.body.id}`).set(owner.auth), 409, 'role_in_use');
    expect(
      (
        await stack.http
          .put(`/rbac/members/${auditor.user.id}/roles`)
          .set(owner.auth)
          .send({ roles: ['member'] })
      ).status,
    ).toBe(200);
    expect((await stack.http.delete(`/rbac/roles/${created.body.id}`).set(owner.auth)).status).toBe(204);
    expectProblem(await stack.http.delete(`/rbac/roles/${created.body.id}`).set(owner.auth), 404, 'not_found');
  });

  it('refuses to delete a role offered by a pending invitation', async () => {
    const role = await createRole({ key: 'contractor', name: 'Contractor', permissions: [] });
    expect(
      (
        await stack.http
          .post(`/orgs/${owner.tenantId}/invite`)
          .set(owner.auth)
          .send({ email: uniqueEmail('c'), role: 'contractor' })
      ).status,
    ).toBe(201);
    expectProblem(await stack.http.delete(`/rbac/roles/${role.body.id}`).set(owner.auth), 409, 'role_in_use');
  });

  it('keeps system roles: owner is immutable, none can be deleted', async () => {
    const ownerRole = await roleId('owner');
    const memberRole = await roleId('member');
    expectProblem(
      await stack.http.put(`/rbac/roles/${ownerRole}/permissions`).set(owner.auth).send({ permissions: [] }),
      409,
      'system_role_immutable',
    );
    for (const id of [ownerRole, memberRole])
      expectProblem(await stack.http.delete(`/rbac/roles/${id}`).set(owner.auth), 409, 'system_role_immutable');
    // admin and member can be tuned.
    const tuned = await stack.http
      .put(`/rbac/roles/${memberRole}/permissions`)
      .set(owner.auth)
      .send({ permissions: ['vr.play', 'org.members.read'] });
    expect(tuned.status).toBe(200);
    expect((await stack.http.get('/rbac/members').set(member.auth)).status).toBe(200);
  });

  it('needs rbac.manage to change roles', async () => {
    expectProblem(
      await createRole({ key: 'x-role', name: 'X', permissions: [] }, member.auth),
      403,
      'permission_denied',
    );
    expectProblem(
      await stack.http
        .put(`/rbac/roles/${await roleId('admin')}/permissions`)
        .set(member.auth)
        .send({ permissions: [] }),
      403,
      'permission_denied',
    );
    expectProblem(
      await stack.http.delete(`/rbac/roles/${await roleId('admin')}`).set(member.auth),
      403,
      'permission_denied',
    );
    expectProblem(
      await stack.http
        .put(`/rbac/members/${admin.user.id}/roles`)
        .set(member.auth)
        .send({ roles: ['member'] }),
      403,
      'permission_denied',
    );
  });

  it('refuses bad input with field errors', async () => {
    expectFieldErrors(
      await createRole({ key: 'ok-key', name: 'Ok', permissions: ['not.a.permission'] }),
      'permissions',
    );
    expectFieldErrors(await createRole({ key: 'Bad Key', name: 'Ok', permissions: [] }), 'key');
    expectFieldErrors(await createRole({ key: 'ok-key', permissions: [] }), 'name');
    expectFieldErrors(await createRole({ key: 'ok-key', name: 'Ok' }), 'permissions');
    expectFieldErrors(
      await stack.http
        .put(`/rbac/roles/${await roleId('admin')}/permissions`)
        .set(owner.auth)
        .send({ permissions: ['nope'] }),
      'permissions',
    );
    expectFieldErrors(
      await stack.http.put('/rbac/roles/nope/permissions').set(owner.auth).send({ permissions: [] }),
      'roleId',
    );
    expectFieldErrors(
      await stack.http.put(`/rbac/members/${member.user.id}/roles`).set(owner.auth).send({ roles: [] }),
      'roles',
    );
    expectFieldErrors(
      await stack.http
        .put(`/rbac/members/${member.user.id}/roles`)
        .set(owner.auth)
        .send({ roles: ['ghost'] }),
      'roles',
    );
    expectFieldErrors(
      await stack.http
        .put('/rbac/members/nope/roles')
        .set(owner.auth)
        .send({ roles: ['member'] }),
      'userId',
    );
    expectFieldErrors(await stack.http.get('/rbac/members?limit=201').set(owner.auth), 'limit');
    expectFieldErrors(await stack.http.get('/rbac/roles?cursor=x').set(owner.auth), 'cursor');
    expectFieldErrors(await stack.http.delete('/rbac/roles/nope').set(owner.auth), 'roleId');
  });

  it("sets a member's roles with the owner rules", async () => {
    const m = await addMember(stack, owner, 'member');
    const res = await stack.http
      .put(`/rbac/members/${m.user.id}/roles`)
      .set(admin.auth)
      .send({ roles: ['member', 'admin'] });
    expect(res.status).toBe(200);
    expect(res.body.roles.map((r: { key: string }) => r.key).sort()).toEqual(['admin', 'member']);
    const list = await stack.http.get('/rbac/members').set(owner.auth);
    expect(list.body.items.find((x: { userId: string }) => x.userId === m.user.id).roles).toHaveLength(2);
    expectProblem(
      await stack.http
        .put(`/rbac/members/${m.user.id}/roles`)
        .set(admin.auth)
        .send({ roles: ['owner'] }),
      403,
      'owner_required',
    );
    expectProblem(
      await stack.http
        .put(`/rbac/members/${owner.user.id}/roles`)
        .set(owner.auth)
        .send({ roles: ['admin'] }),
      409,
      'last_owner',
    );
    expect(
      (
        await stack.http
          .put(`/rbac/members/${owner.user.id}/roles`)
          .set(owner.auth)
          .send({ roles: ['owner', 'admin'] })
      ).status,
    ).toBe(200);
  });

  it("is confined to the active organisation: other organisations' roles and members are 404", async () => {
    const other = await createAccount(stack);
    const otherMember = await addMember(stack, other, 'member');
    const custom = await createRole({ key: 'other-role', name: 'Other', permissions: [] }, other.auth);
    const foreignRole = await roleId('member', other.auth);
    expectProblem(
      await stack.http.put(`/rbac/roles/${foreignRole}/permissions`).set(owner.auth).send({ permissions: [] }),
      404,
      'not_found',
    );
    expectProblem(await stack.http.delete(`/rbac/roles/${custom.body.id}`).set(owner.auth), 404, 'not_found');
    expectProblem(
      await stack.http
        .put(`/rbac/members/${otherMember.user.id}/roles`)
        .set(owner.auth)
        .send({ roles: ['admin'] }),
      404,
      'not_found',
    );
    const members = await stack.http.get('/rbac/members').set(owner.auth);
    expect(members.body.items.map((m: { userId: string }) => m.userId)).not.toContain(otherMember.user.id);
    const roles = await stack.http.get('/rbac/roles').set(owner.auth);
    expect(roles.body.items.map((r: { id: string }) => r.id)).not.toContain(custom.body.id);
  });
});
