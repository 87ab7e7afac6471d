import { startSession } from '../../domain/identity/sessions';
import { User } from '../../entities/identity/user';
import { AuditEntry } from '../../entities/platform/audit';
import { addMember, bearer, createAccount, uniqueEmail, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { expectScimError } from '../support/scim';
import { startStack, type TestStack } from '../support/stack';

const SCIM = 'application/scim+json';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

/**
 * SCIM 2.0 provisioning: an organisation admin's token, then an identity provider creating, finding, changing,
 * deactivating and deleting members through /scim/v2, with the deprovisioned member's access token refused.
 */
describe('SCIM provisioning', () => {
  let stack: TestStack;
  let owner: Account;
  let other: Account;
  let token: string;
  let otherToken: string;
  const scim = (t = token) => ({ ...bearer(t), 'Content-Type': SCIM });

  beforeAll(async () => {
    stack = await startStack({ workers: false });
    [owner, other] = [await createAccount(stack), await createAccount(stack)];
    otherToken = (await stack.http.post(`/orgs/${other.tenantId}/scim-token`).set(other.auth)).body.token;
  });
  afterAll(() => stack?.close());

  it('lets an admin issue, rotate and revoke the token, shown once; members without org.manage are refused', async () => {
    const none = await stack.http.get(`/orgs/${owner.tenantId}/scim-token`).set(owner.auth);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ active: false, createdAt: null, baseUrl: expect.stringMatching(/\/scim\/v2$/) });

    const first = await stack.http.post(`/orgs/${owner.tenantId}/scim-token`).set(owner.auth);
    expect(first.status).toBe(201);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body).toMatchObject({ rotated: false, token: expect.stringMatching(/^scim_[A-Za-z0-9_-]{43}$/) });
    expect((await stack.http.get('/scim/v2/Users').set(scim(first.body.token))).status).toBe(200);

    const second = await stack.http.post(`/orgs/${owner.tenantId}/scim-token`).set(owner.auth);
    expect(second.body.rotated).toBe(true);
    expectScimError(await stack.http.get('/scim/v2/Users').set(scim(first.body.token)), 401);
    expect((await stack.http.get('/scim/v2/Users').set(scim(second.body.token))).status).toBe(200);

    const shown = await stack.http.get(`/orgs/${owner.tenantId}/scim-token`).set(owner.auth);
    expect(shown.body.active).toBe(true);
    expect(JSON.stringify(shown.body)).not.toContain(second.body.token);

    expect((await stack.http.delete(`/orgs/${owner.tenantId}/scim-token`).set(owner.auth)).status).toBe(204);
    expectScimError(await stack.http.get('/scim/v2/Users').set(scim(second.body.token)), 401);
    expectProblem(await stack.http.delete(`/orgs/${owner.tenantId}/scim-token`).set(owner.auth), 404, 'not_found');

    const member = await addMember(stack, owner, 'member');
    expectProblem(
      await stack.http.post(`/orgs/${owner.tenantId}/scim-token`).set(member.auth),
      403,
      'permission_denied',
    );
    expectProblem(await stack.http.post(`/orgs/${owner.tenantId}/scim-token`).set(other.auth), 404, 'not_found');

    token = (await stack.http.post(`/orgs/${owner.tenantId}/scim-token`).set(owner.auth)).body.token;
    const actions = (
      await stack.services.orm.em
        .fork()
        .find(AuditEntry, { tenantId: owner.tenantId, action: { $like: 'scim.token_%' } }, { filters: false })
    ).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['scim.token_created', 'scim.token_rotated', 'scim.token_revoked']));
  });

  it('refuses a wrong, missing or non-SCIM token with 401 in the SCIM error format', async () => {
    expectScimError(await stack.http.get('/scim/v2/Users'), 401);
    expectScimError(await stack.http.get('/scim/v2/Users').set(scim(`scim_${'x'.repeat(43)}`)), 401);
    expectScimError(await stack.http.get('/scim/v2/Users').set(owner.auth), 401);
  });

  it('serves the discovery documents', async () => {
    const config = await stack.http.get('/scim/v2/ServiceProviderConfig').set(scim());
    expect(config.status).toBe(200);
    expect(config.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(config.body).toMatchObject({
      patch: { supported: true },
      filter: { supported: true },
      bulk: { supported: false },
    });
    const types = await stack.http.get('/scim/v2/ResourceTypes').set(scim());
    expect(types.body.Resources).toEqual([
      expect.objectContaining({ id: 'User', endpoint: '/Users', schema: USER }),
      expect.objectContaining({
        id: 'Group',
        endpoint: '/Groups',
        schema: 'urn:ietf:params:scim:schemas:core:2.0:Group',
      }),
    ]);
    const schemas = await stack.http.get('/scim/v2/Schemas').set(scim());
    expect(schemas.body.Resources[0].id).toBe(USER);
  });

  it('provisions, lists, filters, patches, deactivates (revoking access everywhere), reactivates and deletes', async () => {
    const email = uniqueEmail('ada');
    const created = await stack.http
      .post('/scim/v2/Users')
      .set(scim())
      .send({
        schemas: [USER],
        userName: email.toUpperCase(),
        externalId: 'okta-ada',
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [{ value: email, primary: true, type: 'work' }],
        phoneNumbers: [{ value: '+44 1' }],
        active: true,
      });
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(created.body).toMatchObject({
      schemas: [USER],
      userName: email.toUpperCase(),
      externalId: 'okta-ada',
      active: true,
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      emails: [{ value: email, primary: true }],
      meta: { resourceType: 'User' },
    });
    const id = created.body.id as string;
    expect(created.headers.location).toMatch(new RegExp(`/scim/v2/Users/${id}$`));

    // A member with the role member, in the organisation's member list.
    const members = await stack.http.get(`/orgs/${owner.tenantId}/members`).set(owner.auth);
    expect(JSON.stringify(members.body)).toContain(id);

    // Already provisioned (userName in any case), or already a member: 409 uniqueness.
    expectScimError(
      await stack.http.post('/scim/v2/Users').set(scim()).send({ userName: email.toLowerCase() }),
      409,
      'uniqueness',
    );
    expectScimError(
      await stack.http.post('/scim/v2/Users').set(scim()).send({ userName: owner.email }),
      409,
      'uniqueness',
    );

    // Filters: userName (case-insensitive), externalId, emails.value, and combined.
    for (const filter of [
      `userName eq "${email}"`,
      `externalId eq "okta-ada"`,
      `emails.value eq "${email.toUpperCase()}"`,
      `userName eq "${email}" and externalId eq "okta-ada"`,
    ]) {
      const found = await stack.http.get('/scim/v2/Users').query({ filter }).set(scim());
      expect({ filter, status: found.status, total: found.body.totalResults }).toEqual({
        filter,
        status: 200,
        total: 1,
      });
      expect(found.body.Resources[0].id).toBe(id);
    }
    const none = await stack.http
      .get('/scim/v2/Users')
      .query({ filter: `userName eq "${email}" and externalId eq "other"` })
      .set(scim());
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });
    expectScimError(
      await stack.http.get('/scim/v2/Users').query({ filter: 'userName co "a"' }).set(scim()),
      400,
      'invalidFilter',
    );
    expectScimError(
      await stack.http.get('/scim/v2/Users').query({ filter: 'garbage' }).set(scim()),
      400,
      'invalidFilter',
    );

    // The free tier's 3 seats are taken (owner, a member, Ada): one more is refused.
    const grace = uniqueEmail('grace');
    expectScimError(await stack.http.post('/scim/v2/Users').set(scim()).send({ userName: grace }), 409, 'tooMany');

    // The provisioned account signs in (a password reset would give it one; here a session is started for it).
    const em = stack.services.orm.em.fork();
    const account = await em.findOneOrFail(User, { id });
    const session = await startSession(stack.services, em, account, owner.tenantId);
    const access = bearer(session.accessToken);
    expect((await stack.http.get('/auth/me').set(access)).status).toBe(200);

    // PATCH by path, then Entra ID's form: deactivation removes the membership and refuses the access token.
    const renamed = await stack.http
      .patch(`/scim/v2/Users/${id}`)
      .set(scim())
      .send({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'displayName', value: 'Countess' }],
      });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ displayName: 'Countess', active: true });
    const deactivated = await stack.http
      .patch(`/scim/v2/Users/${id}`)
      .set(scim())
      .send({ Operations: [{ op: 'Replace', value: { active: false } }] });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.active).toBe(false);
    expectProblem(await stack.http.get('/auth/me').set(access), 401, 'token_revoked');
    const after = await stack.http.get(`/orgs/${owner.tenantId}/members`).set(owner.auth);
    expect(JSON.stringify(after.body)).not.toContain(id);
    expect((await stack.http.get(`/scim/v2/Users/${id}`).set(scim())).body.active).toBe(false);

    // Her seat is free again: Grace takes it. Paging with count and startIndex.
    const second = await stack.http.post('/scim/v2/Users').set(scim()).send({ userName: grace });
    expect(second.status).toBe(201);
    const page = await stack.http.get('/scim/v2/Users').query({ startIndex: 2, count: 1 }).set(scim());
    expect(page.body).toMatchObject({ totalResults: 2, startIndex: 2, itemsPerPage: 1 });
    expect(page.body.Resources[0].id).toBe(second.body.id);
    const counted = await stack.http.get('/scim/v2/Users').query({ count: 0 }).set(scim());
    expect(counted.body).toMatchObject({ totalResults: 2, Resources: [] });

    // Reactivating Ada needs a seat: refused until Grace is deleted.
    expectScimError(
      await stack.http
        .patch(`/scim/v2/Users/${id}`)
        .set(scim())
        .send({ Operations: [{ op: 'replace', path: 'active', value: true }] }),
      409,
      'tooMany',
    );
    expect((await stack.http.delete(`/scim/v2/Users/${second.body.id}`).set(scim())).status).toBe(204);

    // Reactivated by path, then replaced with PUT, then deleted: deprovisioned again and gone.
    const back = await stack.http
      .patch(`/scim/v2/Users/${id}`)
      .set(scim())
      .send({ Operations: [{ op: 'replace', path: 'active', value: true }] });
    expect(back.body.active).toBe(true);
    const replaced = await stack.http
      .put(`/scim/v2/Users/${id}`)
      .set(scim())
      .send({ schemas: [USER], userName: email, externalId: 'okta-ada-2', active: true });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ userName: email, externalId: 'okta-ada-2', active: true });
    expect(replaced.body.displayName).toBeUndefined();
    const again = await startSession(stack.services, em, account, owner.tenantId);
    expect((await stack.http.delete(`/scim/v2/Users/${id}`).set(scim())).status).toBe(204);
    expectProblem(await stack.http.get('/auth/me').set(bearer(again.accessToken)), 401, 'token_revoked');
    expectScimError(await stack.http.get(`/scim/v2/Users/${id}`).set(scim()), 404);

    const actions = (
      await stack.services.orm.em
        .fork()
        .find(AuditEntry, { tenantId: owner.tenantId, targetId: id, action: { $like: 'scim.%' } }, { filters: false })
    ).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'scim.user_created',
        'scim.user_updated',
        'scim.user_deactivated',
        'scim.user_reactivated',
        'scim.user_deleted',
      ]),
    );
  });

  it("answers 404 for another organisation's users and unknown ids, and SCIM errors for bad bodies", async () => {
    const theirs = await stack.http
      .post('/scim/v2/Users')
      .set(scim(otherToken))
      .send({ userName: uniqueEmail('theirs') });
    expect(theirs.status).toBe(201);
    const id = theirs.body.id as string;
    expectScimError(await stack.http.get(`/scim/v2/Users/${id}`).set(scim()), 404);
    expectScimError(
      await stack.http
        .patch(`/scim/v2/Users/${id}`)
        .set(scim())
        .send({ Operations: [{ op: 'remove', path: 'externalId' }] }),
      404,
    );
    expectScimError(await stack.http.delete(`/scim/v2/Users/${id}`).set(scim()), 404);
    expectScimError(await stack.http.get('/scim/v2/Users/not-an-id').set(scim()), 404);
    const listed = await stack.http
      .get('/scim/v2/Users')
      .query({ filter: `id eq "${id}"` })
      .set(scim());
    expect(listed.body.totalResults).toBe(0);
    expect((await stack.http.get(`/scim/v2/Users/${id}`).set(scim(otherToken))).status).toBe(200);

    expectScimError(
      await stack.http.post('/scim/v2/Users').set(scim()).send({ displayName: 'x' }),
      400,
      'invalidValue',
    );
    expectScimError(
      await stack.http.post('/scim/v2/Users').set(bearer(token)).set('Content-Type', SCIM).send('{"userName":'),
      400,
      'invalidSyntax',
    );
    expectScimError(
      await stack.http.post('/scim/v2/Users').set(bearer(token)).set('Content-Type', 'text/plain').send('x'),
      415,
    );
    expectScimError(
      await stack.http
        .patch(`/scim/v2/Users/${id}`)
        .set(scim(otherToken))
        .send({ Operations: [{ op: 'remove' }] }),
      400,
      'noTarget',
    );
  });
});
