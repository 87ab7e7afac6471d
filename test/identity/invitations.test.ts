import { Invitation, Membership } from '../../entities/identity/organization';
import { addMember, bearer, createAccount, uniqueEmail, type Account } from '../support/factories';
import { deliveredMail, expectFieldErrors, expectProblem, linkToken, relaxedLimits } from '../support/identity';
import { startStack, TEST_INTERNAL_SECRET, type TestStack } from '../support/stack';
import { setSubscription } from '../support/billing';

describe('invitations', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits });
    owner = await createAccount(stack, { displayName: 'Olivia Owner' });
    // Many invitations and members pile up in this organisation: a tier whose seats limit they stay within.
    await setSubscription(stack, owner.tenantId, { tier: 'business' });
  });
  afterAll(() => stack.close());

  const invite = (email: string, role = 'member', auth: Account['auth'] = owner.auth, orgId = owner.tenantId) =>
    stack.http.post(`/orgs/${orgId}/invite`).set(auth).send({ email, role });
  const invitationToken = async (email: string) => linkToken(await deliveredMail(stack, email, 'invitation'));

  /** A self-registered account with an unconfirmed address, signed in. */
  async function newcomer(email = uniqueEmail('invitee')) {
    await stack.http.post('/auth/register').send({ email, password: 'newcomer-password' }).expect(202);
    const login = await stack.http.post('/auth/login').send({ email, password: 'newcomer-password' });
    return { email, auth: bearer(login.body.accessToken) };
  }

  it('mails an invitation that the invitee looks up, then accepts with the token (confirming the address)', async () => {
    const guest = await newcomer();
    const res = await invite(guest.email.toUpperCase(), 'admin');
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/orgs/${owner.tenantId}/invites/${res.body.id}`);
    expect(res.body).toMatchObject({ email: guest.email, role: { key: 'admin' }, invitedById: owner.user.id });
    const days = (Date.parse(res.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    const mail = await deliveredMail(stack, guest.email, 'invitation');
    expect(mail.subject).toBe(`Olivia Owner invited you to ${owner.org.name}`);
    const token = linkToken(mail);

    const lookup = await stack.http.get(`/orgs/invites/${token}`);
    expect(lookup.status).toBe(200);
    // An anonymous answer names no tenant: the organisation by name only.
    expect(lookup.body).toEqual({
      id: res.body.id,
      organization: { name: owner.org.name },
      inviterName: 'Olivia Owner',
      role: { id: expect.any(String), key: 'admin', name: 'Administrator' },
      email: guest.email,
      expiresAt: res.body.expiresAt,
    });

    const listed = await stack.http.get(`/orgs/${owner.tenantId}/invites`).set(owner.auth);
    expect(listed.body.items.map((i: { id: string }) => i.id)).toContain(res.body.id);

    const accepted = await stack.http.post('/orgs/invites/accept').set(guest.auth).send({ token });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({
      id: owner.tenantId,
      name: owner.org.name,
      roles: [{ key: 'admin' }],
      active: false,
    });
    const me = await stack.http.get('/auth/me').set(guest.auth);
    expect(me.body.user.emailConfirmed).toBe(true);
    expect(me.body.memberships.map((m: { id: string }) => m.id)).toContain(owner.tenantId);
    // The new member can switch there and act with the invited role at once.
    const switched = await stack.http.post(`/orgs/${owner.tenantId}/switch`).set(guest.auth);
    expect((await stack.http.get('/rbac/members').set(bearer(switched.body.accessToken))).status).toBe(200);

    expectProblem(
      await stack.http.post('/orgs/invites/accept').set(bearer(switched.body.accessToken)).send({ token }),
      409,
      'already_member',
    );
    expectProblem(await stack.http.get(`/orgs/invites/${token}`), 404, 'not_found');
    expect(
      (await stack.http.get(`/orgs/${owner.tenantId}/invites`).set(owner.auth)).body.items.map(
        (i: { id: string }) => i.id,
      ),
    ).not.toContain(res.body.id);
  });

  it('re-inviting a pending address refreshes the invitation: one invitation, new link and role', async () => {
    const email = uniqueEmail('again');
    const first = await invite(email, 'member');
    const oldToken = await invitationToken(email);
    const again = await invite(email, 'admin');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, role: { key: 'admin' } });
    const newToken = await invitationToken(email);
    expect(newToken).not.toBe(oldToken);
    expectProblem(await stack.http.get(`/orgs/invites/${oldToken}`), 404, 'not_found');
    expect((await stack.http.get(`/orgs/invites/${newToken}`)).body.role.key).toBe('admin');
    expect(await stack.services.orm.em.fork().count(Invitation, { email }, { filters: { tenant: false } })).toBe(1);
  });

  it('refuses to invite a member (409), owners by non-owners (403), and callers without org.members.invite (403)', async () => {
    const admin = await addMember(stack, owner, 'admin');
    const member = await addMember(stack, owner, 'member');
    expectProblem(await invite(member.email), 409, 'already_member');
    expectProblem(await invite(owner.email), 409, 'already_member');
    expectProblem(await invite(uniqueEmail('boss'), 'owner', admin.auth), 403, 'owner_required');
    expectProblem(await invite(uniqueEmail('friend'), 'member', member.auth), 403, 'permission_denied');
    expectProblem(await stack.http.get(`/orgs/${owner.tenantId}/invites`).set(member.auth), 403, 'permission_denied');
    expect((await invite(uniqueEmail('boss'), 'owner')).status).toBe(201);
  });

  it('refuses bad input with field errors', async () => {
    expectFieldErrors(await invite('not-an-email'), 'email');
    expectFieldErrors(await invite(uniqueEmail(), 'no-such-role'), 'role');
    expectFieldErrors(await invite(uniqueEmail(), 'BAD ROLE'), 'role');
    expectFieldErrors(
      await stack.http.post(`/orgs/${owner.tenantId}/invite`).set(owner.auth).send({ email: uniqueEmail() }),
      'role',
    );
    expectFieldErrors(await stack.http.get('/orgs/invites/short'), 'token');
    expectFieldErrors(await stack.http.post('/orgs/invites/accept').set(owner.auth).send({}), 'token');
    expectFieldErrors(await stack.http.post('/orgs/invites/nope/accept').set(owner.auth), 'inviteId');
    expectFieldErrors(await stack.http.delete(`/orgs/${owner.tenantId}/invites/nope`).set(owner.auth), 'inviteId');
    expectFieldErrors(await stack.http.get('/orgs/my-invites?limit=0').set(owner.auth), 'limit');
  });

  it('only the invited address can accept: 403 invitation_email_mismatch by token, 404 like an unknown id by id', async () => {
    const email = uniqueEmail('meant');
    const created = await invite(email);
    const token = await invitationToken(email);
    const other = await createAccount(stack);
    expectProblem(
      await stack.http.post('/orgs/invites/accept').set(other.auth).send({ token }),
      403,
      'invitation_email_mismatch',
    );
    const foreign = await stack.http.post(`/orgs/invites/${created.body.id}/accept`).set(other.auth);
    const unknown = await stack.http.post('/orgs/invites/0190a0a0-0000-7000-8000-000000000000/accept').set(other.auth);
    expectProblem(foreign, 404, 'not_found');
    expect({ ...foreign.body, requestId: null, instance: null }).toEqual({
      ...unknown.body,
      requestId: null,
      instance: null,
    });
    expectProblem(await stack.http.post('/orgs/invites/accept').send({ token }), 401, 'token_missing');
  });

  it('lists the invitations I received across organisations and accepts one by id', async () => {
    const guest = await createAccount(stack);
    const other = await createAccount(stack, { displayName: 'Other Owner' });
    const fromOwner = await invite(guest.email, 'member');
    const fromOther = await invite(guest.email, 'admin', other.auth, other.tenantId);
    const mine = await stack.http.get('/orgs/my-invites').set(guest.auth);
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((i: { id: string }) => i.id)).toEqual([fromOther.body.id, fromOwner.body.id]);
    expect(mine.body.items[0]).toMatchObject({
      organization: { id: other.tenantId },
      inviterName: 'Other Owner',
      role: { key: 'admin' },
      email: guest.email,
    });
    expect((await stack.http.get('/orgs/my-invites').set(owner.auth)).body.items).toEqual([]);

    const accepted = await stack.http.post(`/orgs/invites/${fromOther.body.id}/accept`).set(guest.auth);
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ id: other.tenantId, roles: [{ key: 'admin' }] });
    expect(
      (await stack.http.get('/orgs/my-invites').set(guest.auth)).body.items.map((i: { id: string }) => i.id),
    ).toEqual([fromOwner.body.id]);
    expectProblem(
      await stack.http.post(`/orgs/invites/${fromOther.body.id}/accept`).set(guest.auth),
      409,
      'already_member',
    );
    expectProblem(
      await stack.http.post('/orgs/invites/00000000-0000-7000-8000-000000000000/accept').set(guest.auth),
      404,
      'not_found',
    );
  });

  it('an unconfirmed account neither sees nor accepts by id the invitations to its address; the mailed token still works and confirms it', async () => {
    const created = await invite(uniqueEmail('newhire'), 'admin');
    // Whoever registers the invited address can sign in before confirming it: that proves nothing about the mailbox.
    const squatter = await newcomer(created.body.email);
    expect((await stack.http.get('/auth/me').set(squatter.auth)).body.user.emailConfirmed).toBe(false);
    expect((await stack.http.get('/orgs/my-invites').set(squatter.auth)).body).toEqual({ items: [], nextCursor: null });
    expectProblem(
      await stack.http.post(`/orgs/invites/${created.body.id}/accept`).set(squatter.auth),
      403,
      'email_not_confirmed',
    );
    expectProblem(
      await stack.http.post('/orgs/invites/0190a0a0-0000-7000-8000-000000000000/accept').set(squatter.auth),
      403,
      'email_not_confirmed',
    );
    expect(
      await stack.services.orm.em
        .fork()
        .count(
          Membership,
          { tenantId: owner.tenantId, user: { email: created.body.email } },
          { filters: { tenant: false } },
        ),
    ).toBe(0);

    // The same through the provider bridge, with an address the provider did not verify.
    const viaProvider = await invite(uniqueEmail('oauth-hire'), 'admin');
    const sync = await stack.http
      .post('/auth/internal/oauth-sync')
      .set('X-Internal-Secret', TEST_INTERNAL_SECRET)
      .send({
        provider: 'google',
        subject: `s-${viaProvider.body.id}`,
        email: viaProvider.body.email,
        emailVerified: false,
      });
    expect(sync.body).toMatchObject({ created: true, user: { emailConfirmed: false } });
    const synced = bearer(sync.body.tokens.accessToken);
    expect((await stack.http.get('/orgs/my-invites').set(synced)).body.items).toEqual([]);
    expectProblem(
      await stack.http.post(`/orgs/invites/${viaProvider.body.id}/accept`).set(synced),
      403,
      'email_not_confirmed',
    );

    // The mailed token proves the mailbox: accepting with it works, and confirms the address.
    const accepted = await stack.http
      .post('/orgs/invites/accept')
      .set(squatter.auth)
      .send({ token: await invitationToken(created.body.email) });
    expect(accepted.status).toBe(201);
    expect(accepted.body.roles).toEqual([expect.objectContaining({ key: 'admin' })]);
    expect((await stack.http.get('/auth/me').set(squatter.auth)).body.user.emailConfirmed).toBe(true);
  });

  it('serialises acceptance with a revocation or a role-changing re-invitation of the same invitation', async () => {
    for (let round = 0; round < 4; round++) {
      const revokedGuest = await createAccount(stack);
      const doomed = await invite(revokedGuest.email, 'member');
      const [accept, revoke] = await Promise.all([
        stack.http.post(`/orgs/invites/${doomed.body.id}/accept`).set(revokedGuest.auth),
        stack.http.delete(`/orgs/${owner.tenantId}/invites/${doomed.body.id}`).set(owner.auth),
      ]);
      // Exactly one wins; a revoked invitation never made a member.
      expect([accept.status, revoke.status].sort()).toEqual(accept.status === 201 ? [201, 404] : [204, 404]);
      const joined = await stack.services.orm.em
        .fork()
        .count(Membership, { tenantId: owner.tenantId, user: revokedGuest.user.id }, { filters: { tenant: false } });
      expect(joined).toBe(accept.status === 201 ? 1 : 0);

      const promoted = await createAccount(stack);
      const offer = await invite(promoted.email, 'member');
      const [accepted, reinvited] = await Promise.all([
        stack.http.post(`/orgs/invites/${offer.body.id}/accept`).set(promoted.auth),
        invite(promoted.email, 'admin'),
      ]);
      expect(accepted.status).toBe(201);
      // Either the re-invitation came first (its role is the one granted) or it found a member.
      if (reinvited.status === 200) expect(accepted.body.roles.map((r: { key: string }) => r.key)).toEqual(['admin']);
      else expectProblem(reinvited, 409, 'already_member');
      expect(
        await stack.services.orm.em
          .fork()
          .count(Invitation, { email: promoted.email, acceptedAt: null }, { filters: { tenant: false } }),
      ).toBe(0);
    }
  });

  it('keeps one pending invitation when the same address is invited twice at once', async () => {
    const email = uniqueEmail('twice');
    const answers = await Promise.all([invite(email, 'member'), invite(email, 'admin')]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(answers[0].body.id).toBe(answers[1].body.id);
    expect(
      await stack.services.orm.em
        .fork()
        .count(Invitation, { tenantId: owner.tenantId, email }, { filters: { tenant: false } }),
    ).toBe(1);
  });

  it('revokes an invitation: its link and id stop working', async () => {
    const guest = await createAccount(stack);
    const created = await invite(guest.email);
    const token = await invitationToken(guest.email);
    const member = await addMember(stack, owner, 'member');
    expectProblem(
      await stack.http.delete(`/orgs/${owner.tenantId}/invites/${created.body.id}`).set(member.auth),
      403,
      'permission_denied',
    );
    expect((await stack.http.delete(`/orgs/${owner.tenantId}/invites/${created.body.id}`).set(owner.auth)).status).toBe(
      204,
    );
    expectProblem(await stack.http.get(`/orgs/invites/${token}`), 404, 'not_found');
    expectProblem(await stack.http.post('/orgs/invites/accept').set(guest.auth).send({ token }), 404, 'not_found');
    expectProblem(
      await stack.http.delete(`/orgs/${owner.tenantId}/invites/${created.body.id}`).set(owner.auth),
      404,
      'not_found',
    );
  });

  it('treats an expired invitation as gone', async () => {
    const guest = await createAccount(stack);
    const created = await invite(guest.email);
    const token = await invitationToken(guest.email);
    await stack.services.orm.em
      .fork()
      .nativeUpdate(
        Invitation,
        { id: created.body.id },
        { expiresAt: new Date(Date.now() - 1000) },
        { filters: { tenant: false } },
      );
    expectProblem(await stack.http.get(`/orgs/invites/${token}`), 404, 'not_found');
    expectProblem(await stack.http.post('/orgs/invites/accept').set(guest.auth).send({ token }), 404, 'not_found');
    expect((await stack.http.get('/orgs/my-invites').set(guest.auth)).body.items).toEqual([]);
    // Inviting again revives it with a fresh link.
    expect((await invite(guest.email)).status).toBe(200);
    expect(
      (
        await stack.http
          .post('/orgs/invites/accept')
          .set(guest.auth)
          .send({ token: await invitationToken(guest.email) })
      ).status,
    ).toBe(201);
  });
});
