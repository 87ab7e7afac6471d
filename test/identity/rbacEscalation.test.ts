import { allPermissions, defaultRoles, type Permission } from '../../domain/identity/permissionCatalogue';
import { addMember, createAccount, uniqueEmail, type Account } from '../support/factories';
import { expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { setSubscription } from '../support/billing';

/**
 * The escalation rule of RBAC: a caller grants or takes away only what it holds itself. Assigning or removing a
 * role, inviting with one, creating a role or changing a role's permissions answers 403 `permission_escalation`
 * (the detail names what is missing) unless every permission involved is among the caller's own effective
 * permissions in the organisation; owners hold everything. A role the caller holds can only lose permissions,
 * unless the caller is an owner.
 */
describe('RBAC: no permission escalation', () => {
  let stack: TestStack;
  let owner: Account;
  const memberPermissions = defaultRoles.find((r) => r.key === 'member')!.permissions;
  const customRoles: [string, Permission[]][] = [
    ['member_manager', ['org.members.read', 'org.members.manage']],
    ['staff_manager', [...memberPermissions, 'org.members.read', 'org.members.manage']],
    ['role_editor', ['rbac.manage']],
    ['recruiter', ['org.members.read', 'org.members.invite']],
    ['reader', ['org.members.read']],
  ];

  /** Creates the custom roles in an organisation as its owner. */
  async function withCustomRoles(org: Account): Promise<void> {
    for (const [key, permissions] of customRoles) {
      const res = await stack.http.post('/rbac/roles').set(org.auth).send({ key, name: key, permissions });
      expect(res.status).toBe(201);
    }
  }

  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits, workers: false });
    owner = await createAccount(stack);
    // Many invitations and members pile up in this organisation: a tier whose seats limit they stay within.
    await setSubscription(stack, owner.tenantId, { tier: 'business' });
    await withCustomRoles(owner);
  });
  afterAll(() => stack.close());

  const roleOf = async (key: string, org: Account = owner) =>
    (
      (await stack.http.get('/rbac/roles?limit=200').set(org.auth)).body.items as {
        id: string;
        key: string;
        permissions: string[];
      }[]
    ).find((r) => r.key === key)!;
  const rolesOf = async (userId: string, org: Account = owner) =>
    (
      (await stack.http.get('/rbac/members?limit=200').set(org.auth)).body.items as {
        userId: string;
        roles: { key: string }[];
      }[]
    )
      .find((m) => m.userId === userId)!
      .roles.map((r) => r.key)
      .sort();
  const putRoles = (userId: string, roles: string[], auth: Account['auth']) =>
    stack.http.put(`/rbac/members/${userId}/roles`).set(auth).send({ roles });
  const patchRole = (userId: string, role: string, auth: Account['auth'], org: Account = owner) =>
    stack.http.patch(`/orgs/${org.tenantId}/members/${userId}/role`).set(auth).send({ role });
  const putPermissions = (roleId: string, permissions: string[], auth: Account['auth']) =>
    stack.http.put(`/rbac/roles/${roleId}/permissions`).set(auth).send({ permissions });
  const invite = (role: string, auth: Account['auth'], org: Account = owner) =>
    stack.http
      .post(`/orgs/${org.tenantId}/invite`)
      .set(auth)
      .send({ email: uniqueEmail('invitee'), role });
  const escalation = (res: Parameters<typeof expectProblem>[0]) =>
    expectProblem(res, 403, 'permission_escalation').detail as string;

  it('a holder of org.members.manage cannot give itself the admin role: 403 naming the permissions it lacks', async () => {
    const manager = await addMember(stack, owner, 'member_manager');
    expectProblem(await stack.http.get('/api/subscription').set(manager.auth), 403, 'permission_denied');

    const detail = escalation(await putRoles(manager.user.id, ['admin'], manager.auth));
    expect(detail).toContain('admin');
    expect(detail).toContain('billing.manage');
    expect(detail).toContain('rbac.manage');
    expect(detail).not.toContain('org.members.manage');
    escalation(await putRoles(manager.user.id, ['member_manager', 'admin'], manager.auth));
    escalation(await patchRole(manager.user.id, 'admin', manager.auth));

    expect(await rolesOf(manager.user.id)).toEqual(['member_manager']);
    expectProblem(await stack.http.get('/api/subscription').set(manager.auth), 403, 'permission_denied');
  });

  it('a holder of org.members.manage cannot make another member admin, by either route', async () => {
    const manager = await addMember(stack, owner, 'member_manager');
    const accomplice = await addMember(stack, owner, 'member');
    expect(escalation(await patchRole(accomplice.user.id, 'admin', manager.auth))).toContain('billing.manage');
    escalation(await putRoles(accomplice.user.id, ['member', 'admin'], manager.auth));
    // Nor a role holding a single permission it lacks.
    escalation(await putRoles(accomplice.user.id, ['member', 'role_editor'], manager.auth));
    expect(await rolesOf(accomplice.user.id)).toEqual(['member']);
    expectProblem(await stack.http.get('/api/subscription').set(accomplice.auth), 403, 'permission_denied');
  });

  it("grants and takes away roles within the caller's own permissions, and refuses to demote a higher member", async () => {
    const manager = await addMember(stack, owner, 'member_manager');
    const colleague = await addMember(stack, owner, 'reader');
    const admin = await addMember(stack, owner, 'admin');

    // Granting and removing roles whose permissions the manager holds.
    const granted = await putRoles(colleague.user.id, ['reader', 'member_manager'], manager.auth);
    expect(granted.status).toBe(200);
    expect(granted.body.roles.map((r: { key: string }) => r.key).sort()).toEqual(['member_manager', 'reader']);
    expect((await patchRole(colleague.user.id, 'reader', manager.auth)).status).toBe(200);
    expect(await rolesOf(colleague.user.id)).toEqual(['reader']);

    // Taking admin away from an administrator takes permissions the manager does not hold.
    expect(escalation(await patchRole(admin.user.id, 'reader', manager.auth))).toContain('billing.manage');
    escalation(await putRoles(admin.user.id, ['member_manager'], manager.auth));
    expect(await rolesOf(admin.user.id)).toEqual(['admin']);
    // Roles the member keeps are not in question: adding one within the manager's permissions is fine.
    expect((await putRoles(admin.user.id, ['admin', 'reader'], manager.auth)).status).toBe(200);
    expect(await rolesOf(admin.user.id)).toEqual(['admin', 'reader']);

    // Giving up one's own role is always within one's permissions.
    expect((await putRoles(manager.user.id, ['reader'], manager.auth)).status).toBe(200);
    expect(await rolesOf(manager.user.id)).toEqual(['reader']);
  });

  it('a manager holding the member permissions manages plain members, but cannot remove an administrator', async () => {
    const manager = await addMember(stack, owner, 'staff_manager');
    const member = await addMember(stack, owner, 'member');
    const other = await addMember(stack, owner, 'member');
    const admin = await addMember(stack, owner, 'admin');

    expect((await patchRole(member.user.id, 'reader', manager.auth)).status).toBe(200);
    expect((await patchRole(member.user.id, 'member', manager.auth)).status).toBe(200);
    expect(await rolesOf(member.user.id)).toEqual(['member']);

    expect((await stack.http.delete(`/orgs/${owner.tenantId}/members/${other.user.id}`).set(manager.auth)).status).toBe(
      204,
    );
    expect(
      escalation(await stack.http.delete(`/orgs/${owner.tenantId}/members/${admin.user.id}`).set(manager.auth)),
    ).toContain('billing.manage');
    expect(await rolesOf(admin.user.id)).toEqual(['admin']);
  });

  it('a holder of rbac.manage alone cannot add permissions it lacks to its own role or to another one', async () => {
    const editor = await addMember(stack, owner, 'role_editor');
    const own = await roleOf('role_editor');
    const detail = escalation(
      await putPermissions(own.id, ['rbac.manage', 'billing.manage', 'org.members.manage'], editor.auth),
    );
    expect(detail).toContain('billing.manage');
    expect(detail).toContain('org.members.manage');
    expect((await roleOf('role_editor')).permissions).toEqual(['rbac.manage']);
    expect((await stack.http.get('/api/subscription/').set(editor.auth)).status).not.toBe(200);

    const reader = await roleOf('reader');
    expect(escalation(await putPermissions(reader.id, ['org.members.read', 'billing.read'], editor.auth))).toContain(
      'billing.read',
    );
    // Taking permissions it lacks away from a role (here every administrator's) is refused too.
    expect(escalation(await putPermissions((await roleOf('admin')).id, [], editor.auth))).toContain('billing.manage');
    expect((await roleOf('admin')).permissions).toHaveLength(allPermissions.length);
    expect((await roleOf('reader')).permissions).toEqual(['org.members.read']);
  });

  it('creates roles only from permissions the caller holds', async () => {
    const editor = await addMember(stack, owner, 'role_editor');
    const create = (key: string, permissions: string[], auth: Account['auth']) =>
      stack.http.post('/rbac/roles').set(auth).send({ key, name: key, permissions });
    expect(escalation(await create('treasurer', ['billing.manage', 'rbac.manage'], editor.auth))).toContain(
      'billing.manage',
    );
    expect(
      (await stack.http.get('/rbac/roles?limit=200').set(owner.auth)).body.items.map((r: { key: string }) => r.key),
    ).not.toContain('treasurer');

    const editors = await create('co_editor', ['rbac.manage'], editor.auth);
    expect(editors.status).toBe(201);
    const empty = await create('placeholder', [], editor.auth);
    expect(empty.status).toBe(201);
    // A role nobody holds, within the editor's permissions, can be edited by it.
    expect((await putPermissions(empty.body.id, ['rbac.manage'], editor.auth)).status).toBe(200);
    expect((await putPermissions(empty.body.id, [], editor.auth)).status).toBe(200);
    // Admins and owners create any role.
    const admin = await addMember(stack, owner, 'admin');
    expect((await create('treasurer', ['billing.manage', 'billing.read'], admin.auth)).status).toBe(201);
  });

  it('a role the caller holds can only lose permissions, unless the caller is an owner', async () => {
    const org = await createAccount(stack);
    await withCustomRoles(org);
    const curator = await stack.http
      .post('/rbac/roles')
      .set(org.auth)
      .send({ key: 'curator', name: 'Curator', permissions: ['rbac.manage', 'knowledge.read'] });
    expect(curator.status).toBe(201);
    const editor = await addMember(stack, org, 'curator');
    expect((await putRoles(editor.user.id, ['curator', 'reader'], org.auth)).status).toBe(200);

    // org.members.read is held (through reader), but adding it to a role of its own is refused.
    const detail = escalation(
      await putPermissions(curator.body.id, ['rbac.manage', 'knowledge.read', 'org.members.read'], editor.auth),
    );
    expect(detail).toContain('curator');
    const shrunk = await putPermissions(curator.body.id, ['rbac.manage'], editor.auth);
    expect(shrunk.status).toBe(200);
    expect(shrunk.body.permissions).toEqual(['rbac.manage']);
    // Once lost, it cannot take it back.
    escalation(await putPermissions(curator.body.id, ['rbac.manage', 'knowledge.read'], editor.auth));

    // Administrators likewise tune their own role down, not up; the owner can do both.
    const admin = await addMember(stack, org, 'admin');
    const adminRole = await roleOf('admin', org);
    const fewer = allPermissions.filter((p) => p !== 'knowledge.keys.manage');
    expect((await putPermissions(adminRole.id, fewer, admin.auth)).status).toBe(200);
    expect(escalation(await putPermissions(adminRole.id, allPermissions, admin.auth))).toContain(
      'knowledge.keys.manage',
    );
    expect((await putPermissions(adminRole.id, allPermissions, org.auth)).status).toBe(200);
    expect(
      (await putPermissions(curator.body.id, ['rbac.manage', 'knowledge.read', 'billing.manage'], org.auth)).status,
    ).toBe(200);
  });

  it('a holder of org.members.invite invites only with roles within its own permissions', async () => {
    const recruiter = await addMember(stack, owner, 'recruiter');
    expect(escalation(await invite('admin', recruiter.auth))).toContain('billing.manage');
    // The member role holds permissions the recruiter does not have either.
    expect(escalation(await invite('member', recruiter.auth))).toContain('vr.play');
    expect((await invite('reader', recruiter.auth)).status).toBe(201);
    expect((await invite('recruiter', recruiter.auth)).status).toBe(201);
    const pending = await stack.http.get(`/orgs/${owner.tenantId}/invites?limit=200`).set(owner.auth);
    expect(
      pending.body.items
        .filter((i: { invitedById: string }) => i.invitedById === recruiter.user.id)
        .map((i: { role: { key: string } }) => i.role.key)
        .sort(),
    ).toEqual(['reader', 'recruiter']);
  });

  it('keeps the usual flows of owners and administrators', async () => {
    const admin = await addMember(stack, owner, 'admin');
    const member = await addMember(stack, owner, 'member');
    const second = await addMember(stack, owner, 'admin');
    expect((await patchRole(member.user.id, 'admin', admin.auth)).status).toBe(200);
    expect((await putRoles(member.user.id, ['member', 'staff_manager'], admin.auth)).status).toBe(200);
    expect((await patchRole(second.user.id, 'member', admin.auth)).status).toBe(200);
    expect((await invite('admin', admin.auth)).status).toBe(201);
    expectProblem(await invite('owner', admin.auth), 403, 'owner_required');
    expectProblem(await patchRole(member.user.id, 'owner', admin.auth), 403, 'owner_required');
    expect((await patchRole(member.user.id, 'owner', owner.auth)).status).toBe(200);
    expect((await putRoles(member.user.id, ['admin'], owner.auth)).status).toBe(200);
    expect((await invite('owner', owner.auth)).status).toBe(201);
  });

  it('documents 403 permission_escalation on every route that grants or takes away', async () => {
    const doc = (await stack.http.get('/openapi.json')).body as {
      paths: Record<
        string,
        Record<string, { description: string; responses: Record<string, { description: string }> }>
      >;
    };
    const routes: [string, string][] = [
      ['/rbac/members/{userId}/roles', 'put'],
      ['/orgs/{id}/members/{userId}/role', 'patch'],
      ['/orgs/{id}/members/{userId}', 'delete'],
      ['/orgs/{id}/invite', 'post'],
      ['/rbac/roles', 'post'],
      ['/rbac/roles/{roleId}/permissions', 'put'],
    ];
    for (const [path, method] of routes) {
      const op = doc.paths[path][method];
      expect({ path, method, text: op.responses['403'].description }).toEqual({
        path,
        method,
        text: expect.stringContaining('permission_escalation'),
      });
      expect({ path, method, text: op.responses['403'].description }).toEqual({
        path,
        method,
        text: expect.stringContaining('permission_denied'),
      });
      expect({ path, method, text: op.description }).toEqual({
        path,
        method,
        text: expect.stringContaining('permission_escalation'),
      });
    }
  });
});
