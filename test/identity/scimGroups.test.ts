import { startSession } from '../../domain/identity/sessions';
import { User } from '../../entities/identity/user';
import { AuditEntry } from '../../entities/platform/audit';
import { addMember, bearer, createAccount, uniqueEmail, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { expectScimError } from '../support/scim';
import { startStack, type TestStack } from '../support/stack';

const SCIM = 'application/scim+json';

/**
 * SCIM Groups as Okta and Entra ID push them, and the roles an admin maps them to: members of a mapped group hold its
 * role on their next request, lose it when they leave, and the owner role is never the provider's to give.
 */
describe('SCIM groups mapped to roles', () => {
  let stack: TestStack;
  let owner: Account;
  let other: Account;
  let token: string;
  let otherToken: string;
  const scim = (t = token) => ({ ...bearer(t), 'Content-Type': SCIM });

  beforeAll(async () => {
    stack = await startStack({ workers: false });
    [owner, other] = [await createAccount(stack), await createAccount(stack)];
    token = (await stack.http.post(`/orgs/${owner.tenantId}/scim-token`).set(owner.auth)).body.token;
    otherToken = (await stack.http.post(`/orgs/${other.tenantId}/scim-token`).set(other.auth)).body.token;
  });
  afterAll(() => stack?.close());

  /** A provisioned account with a session of its own. */
  async function provision(name: string) {
    const created = await stack.http
      .post('/scim/v2/Users')
      .set(scim())
      .send({ userName: uniqueEmail(name) });
    expect(created.status).toBe(201);
    const em = stack.services.orm.em.fork();
    const session = await startSession(
      stack.services,
      em,
      await em.findOneOrFail(User, { id: created.body.id }),
      owner.tenantId,
    );
    return {
      id: created.body.id as string,
      userName: created.body.userName as string,
      auth: bearer(session.accessToken),
    };
  }
  const rolesOf = async (userId: string) => {
    const members = await stack.http.get(`/orgs/${owner.tenantId}/members?limit=200`).set(owner.auth);
    const member = (members.body.items as { userId: string; roles: { key: string }[] }[]).find(
      (m) => m.userId === userId,
    );
    return member?.roles.map((r) => r.key).sort();
  };
  /** Listing members needs org.members.read: members lack it, admins hold it. */
  const canListMembers = async (auth: Record<string, string>) =>
    (await stack.http.get(`/orgs/${owner.tenantId}/members`).set(auth)).status === 200;
  const patch = (groupId: string, ...Operations: object[]) =>
    stack.http
      .patch(`/scim/v2/Groups/${groupId}`)
      .set(scim())
      .send({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations });

  it('creates, finds, changes and deletes groups; mapped roles follow the pushed memberships', async () => {
    const [alice, bob] = [await provision('alice'), await provision('bob')];
    const created = await stack.http
      .post('/scim/v2/Groups')
      .set(scim())
      .send({ displayName: 'Admins', externalId: 'okta-admins', members: [{ value: alice.id }] });
    expect(created.status).toBe(201);
    expect(created.headers.location).toMatch(new RegExp(`/scim/v2/Groups/${created.body.id}$`));
    expect(created.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Admins',
      externalId: 'okta-admins',
      members: [{ value: alice.id, display: alice.userName, type: 'User' }],
      meta: { resourceType: 'Group' },
    });
    const groupId = created.body.id as string;
    expectScimError(
      await stack.http.post('/scim/v2/Groups').set(scim()).send({ displayName: 'ADMINS' }),
      409,
      'uniqueness',
    );
    expectScimError(
      await stack.http
        .post('/scim/v2/Groups')
        .set(scim())
        .send({ displayName: 'Strangers', members: [{ value: other.user.id }] }),
      400,
      'invalidValue',
    );

    // How the providers look a group up: by name without its members, or by member.
    const found = await stack.http
      .get('/scim/v2/Groups')
      .query({ filter: 'displayName eq "admins"', excludedAttributes: 'members' })
      .set(scim());
    expect(found.body).toMatchObject({ totalResults: 1, Resources: [{ id: groupId, displayName: 'Admins' }] });
    expect(found.body.Resources[0].members).toBeUndefined();
    const byMember = await stack.http
      .get('/scim/v2/Groups')
      .query({ filter: `members.value eq "${bob.id}"` })
      .set(scim());
    expect(byMember.body.totalResults).toBe(0);
    expectScimError(
      await stack.http.get('/scim/v2/Groups').query({ filter: 'userName eq "x"' }).set(scim()),
      400,
      'invalidFilter',
    );
    expectScimError(await stack.http.get(`/scim/v2/Groups/${groupId}`).set(scim(otherToken)), 404);

    // Unmapped, the group grants nothing; mapped to admin, its member holds admin on the next request.
    expect(await rolesOf(alice.id)).toEqual(['member']);
    expect(await canListMembers(alice.auth)).toBe(false);
    const mapped = await stack.http
      .put(`/orgs/${owner.tenantId}/scim-groups/${groupId}/role`)
      .set(owner.auth)
      .send({ roleKey: 'admin' });
    expect(mapped.status).toBe(200);
    expect(mapped.body).toMatchObject({ id: groupId, displayName: 'Admins', roleKey: 'admin', members: 1 });
    expect(await rolesOf(alice.id)).toEqual(['admin']);
    expect(await canListMembers(alice.auth)).toBe(true);

    // Okta's forms: add bob; remove alice by filter.
    expect((await patch(groupId, { op: 'add', path: 'members', value: [{ value: bob.id }] })).status).toBe(200);
    expect(await rolesOf(bob.id)).toEqual(['admin']);
    const removed = await patch(groupId, { op: 'remove', path: `members[value eq "${alice.id}"]` });
    expect(removed.body.members.map((m: { value: string }) => m.value)).toEqual([bob.id]);
    expect(await rolesOf(alice.id)).toEqual(['member']);
    expect(await canListMembers(alice.auth)).toBe(false);

    // Entra ID's forms: a rename without a path, a removal with a value list, capitalised ops.
    const renamed = await patch(groupId, { op: 'Replace', value: { displayName: 'Administrators' } });
    expect(renamed.body.displayName).toBe('Administrators');
    await patch(groupId, { op: 'Remove', path: 'members', value: [{ value: bob.id }] }).expect(200);
    expect(await rolesOf(bob.id)).toEqual(['member']);
    expectScimError(await patch(groupId, { op: 'remove', path: 'displayName' }), 400, 'mutability');
    expectScimError(await patch(groupId, { op: 'add', path: 'owners', value: 'x' }), 400, 'invalidPath');

    // PUT replaces the members; a deactivated member comes back with the group's role; DELETE takes the roles away.
    const replaced = await stack.http
      .put(`/scim/v2/Groups/${groupId}`)
      .set(scim())
      .send({ displayName: 'Administrators', members: [{ value: alice.id }, { value: bob.id }] });
    expect(replaced.status).toBe(200);
    expect([await rolesOf(alice.id), await rolesOf(bob.id)]).toEqual([['admin'], ['admin']]);
    const off = {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { active: false } }],
    };
    await stack.http.patch(`/scim/v2/Users/${alice.id}`).set(scim()).send(off).expect(200);
    expect(await rolesOf(alice.id)).toBeUndefined();
    const on = { ...off, Operations: [{ op: 'replace', value: { active: true } }] };
    await stack.http.patch(`/scim/v2/Users/${alice.id}`).set(scim()).send(on).expect(200);
    expect(await rolesOf(alice.id)).toEqual(['admin']);
    expect((await stack.http.delete(`/scim/v2/Groups/${groupId}`).set(scim())).status).toBe(204);
    expect([await rolesOf(alice.id), await rolesOf(bob.id)]).toEqual([['member'], ['member']]);
    expectScimError(await stack.http.get(`/scim/v2/Groups/${groupId}`).set(scim()), 404);

    const actions = (
      await stack.services.orm.em
        .fork()
        .find(AuditEntry, { tenantId: owner.tenantId, action: { $like: 'scim.%' } }, { filters: false })
    ).map((e) => e.action);
    for (const action of [
      'scim.group_created',
      'scim.group_updated',
      'scim.group_role_mapped',
      'scim.member_roles_changed',
      'scim.group_deleted',
    ])
      expect(actions).toContain(action);
  });

  it('maps only roles the admin may grant, never the owner role; the owner keeps ownership in any group', async () => {
    const group = await stack.http.post('/scim/v2/Groups').set(scim()).send({ displayName: 'Staff' });
    const route = `/orgs/${owner.tenantId}/scim-groups/${group.body.id}/role`;
    expectProblem(await stack.http.put(route).set(owner.auth).send({ roleKey: 'owner' }), 400, 'validation_failed');
    expectProblem(
      await stack.http.put(route).set(owner.auth).send({ roleKey: 'no_such_role' }),
      400,
      'validation_failed',
    );
    const member = await addMember(stack, owner);
    expectProblem(await stack.http.put(route).set(member.auth).send({ roleKey: 'member' }), 403, 'permission_denied');
    expectProblem(
      await stack.http
        .put(`/orgs/${owner.tenantId}/scim-groups/${group.body.id}/role`)
        .set(other.auth)
        .send({ roleKey: 'member' }),
      404,
      'not_found',
    );
    const listed = await stack.http.get(`/orgs/${owner.tenantId}/scim-groups`).set(owner.auth);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: group.body.id, roleKey: null, members: 0 })]),
    );
    // Unmapping is null.
    expect((await stack.http.put(route).set(owner.auth).send({ roleKey: null })).body.roleKey).toBeNull();
  });
});
