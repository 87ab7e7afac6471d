import { addMember, createAccount, uniqueEmail, type Account } from '../../support/factories';
import { expectFieldErrors, expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';
import { uploadFile } from '../../support/cloud';

describe('core: sidebar and onboarding', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack, { tier: 'pro' });
  });
  afterAll(() => stack.close());

  const keys = async (who: Account) =>
    ((await stack.http.get('/api/sidebar/access').set(who.auth)).body.items as { key: string }[]).map((i) => i.key);
  const roleId = async (key: string) =>
    ((await stack.http.get('/rbac/roles').set(owner.auth)).body.items as { id: string; key: string }[]).find(
      (r) => r.key === key,
    )!.id;

  it('shows an owner every entry of the modules in use, a low-permission member only theirs', async () => {
    const catalogue = (await stack.http.get('/api/sidebar/catalogue').set(owner.auth)).body.items as {
      key: string;
      module: string | null;
    }[];
    expect(catalogue.length).toBeGreaterThan(10);
    const ownerKeys = await keys(owner);
    // Pro: no HR module, so no HR entry even for the owner.
    expect(ownerKeys).toEqual(catalogue.filter((e) => e.module !== 'rh').map((e) => e.key));

    expect(
      (
        await stack.http
          .post('/rbac/roles')
          .set(owner.auth)
          .send({ key: 'viewer', name: 'Viewer', permissions: ['core.customers.read'] })
      ).status,
    ).toBe(201);
    const viewer = await addMember(stack, owner, 'viewer');
    expect(await keys(viewer)).toEqual(['dashboard', 'calendar', 'appointments', 'customers', 'tasks', 'deals']);

    // Switching a module off removes its entries for everyone.
    const { id } = (await stack.http.get('/api/businesses').set(owner.auth)).body;
    expect(
      (
        await stack.http
          .patch(`/api/businesses/${id}/modules`)
          .set(owner.auth)
          .send({ modules: ['core', 'knowledge', 'cloud'] })
      ).status,
    ).toBe(200);
    const after = await stack.http.get('/api/sidebar/access').set(owner.auth);
    expect(after.body.modules).toEqual(['cloud', 'core', 'knowledge']);
    expect(after.body.items.map((i: { key: string }) => i.key)).not.toContain('vr.rooms');
    await stack.http
      .patch(`/api/businesses/${id}/modules`)
      .set(owner.auth)
      .send({ modules: ['core', 'knowledge', 'cloud', 'vr'] });
  });

  it('arranges by my preferences, else my role default, else the catalogue', async () => {
    const member = await addMember(stack, owner, 'member');
    expect((await stack.http.get('/api/sidebar/access').set(member.auth)).body.source).toBe('catalogue');
    expect((await stack.http.get('/api/sidebar/preferences').set(member.auth)).body).toEqual({
      order: [],
      hidden: [],
      pinned: [],
      custom: false,
      updatedAt: null,
    });

    // The administrator sets the member role's default.
    const memberRole = await roleId('member');
    expectProblem(
      await stack.http
        .put(`/api/sidebar/role-defaults/${memberRole}`)
        .set(member.auth)
        .send({ order: [], hidden: [], pinned: [] }),
      403,
      'permission_denied',
    );
    const set = await stack.http
      .put(`/api/sidebar/role-defaults/${memberRole}`)
      .set(owner.auth)
      .send({ order: ['invoices'], hidden: ['calendar'], pinned: ['drive'] });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ roleId: memberRole, roleKey: 'member', pinned: ['drive'] });
    expect((await stack.http.get('/api/sidebar/role-defaults').set(owner.auth)).body.items).toHaveLength(1);
    const byRole = (await stack.http.get('/api/sidebar/access').set(member.auth)).body;
    expect(byRole.source).toBe('role_default');
    expect(byRole.items.slice(0, 2).map((i: { key: string }) => i.key)).toEqual(['drive', 'invoices']);
    expect(byRole.items.find((i: { key: string }) => i.key === 'calendar')).toMatchObject({
      hidden: true,
      pinned: false,
    });

    // My own arrangement wins; resetting it brings the role default back.
    const mine = await stack.http
      .put('/api/sidebar/preferences')
      .set(member.auth)
      .send({ order: ['customers'], hidden: [], pinned: ['deals'] });
    expect(mine.body).toMatchObject({ custom: true, pinned: ['deals'] });
    const own = (await stack.http.get('/api/sidebar/access').set(member.auth)).body;
    expect(own.source).toBe('preferences');
    expect(own.items.slice(0, 2).map((i: { key: string }) => i.key)).toEqual(['deals', 'customers']);
    expect((await stack.http.delete('/api/sidebar/preferences').set(member.auth)).status).toBe(204);
    expect((await stack.http.get('/api/sidebar/access').set(member.auth)).body.source).toBe('role_default');
    expect((await stack.http.delete(`/api/sidebar/role-defaults/${memberRole}`).set(owner.auth)).status).toBe(204);
    expectProblem(
      await stack.http.delete(`/api/sidebar/role-defaults/${memberRole}`).set(owner.auth),
      404,
      'not_found',
    );
    expect((await stack.http.get('/api/sidebar/access').set(member.auth)).body.source).toBe('catalogue');
  });

  it('refuses bad input, and roles of another organisation are 404', async () => {
    const put = (body: object) => stack.http.put('/api/sidebar/preferences').set(owner.auth).send(body);
    expectFieldErrors(
      await put({ order: ['nowhere'], hidden: 'x', pinned: ['deals', 'deals'] }),
      'order',
      'hidden',
      'pinned',
    );
    expectFieldErrors(await put({}), 'order', 'hidden', 'pinned');
    expectFieldErrors(await put({ order: [], hidden: ['deals'], pinned: ['deals'] }), 'pinned');
    const other = await createAccount(stack);
    const memberRole = await roleId('member');
    expectProblem(
      await stack.http
        .put(`/api/sidebar/role-defaults/${memberRole}`)
        .set(other.auth)
        .send({ order: [], hidden: [], pinned: [] }),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http.delete(`/api/sidebar/role-defaults/${memberRole}`).set(other.auth),
      404,
      'not_found',
    );
    expect(
      (
        await stack.http
          .put('/api/sidebar/role-defaults/nope')
          .set(owner.auth)
          .send({ order: [], hidden: [], pinned: [] })
      ).status,
    ).toBe(400);
  });

  it('moves the onboarding status as the organisation fills in, and dismisses per member', async () => {
    const fresh = await createAccount(stack, { tier: 'pro' });
    const status = async (who: Account = fresh) => (await stack.http.get('/api/onboarding').set(who.auth)).body;
    const done = async () =>
      Object.fromEntries(((await status()).steps as { key: string; done: boolean }[]).map((s) => [s.key, s.done]));
    const start = await status();
    expect(start).toMatchObject({
      completed: 0,
      complete: false,
      nextStep: 'business_profile',
      dismissed: false,
      dismissedAt: null,
    });
    expect(start.steps.map((s: { key: string }) => s.key)).toEqual([
      'business_profile',
      'first_member_invited',
      'first_service',
      'first_contact',
      'first_invoice',
      'public_slug',
      'first_file',
      'first_vr_room',
    ]);

    const { id } = (await stack.http.get('/api/businesses').set(fresh.auth)).body;
    await stack.http
      .patch(`/api/businesses/${id}`)
      .set(fresh.auth)
      .send({
        siren: '732829320',
        address: { line1: '1 rue de la Paix', postalCode: '75002', city: 'Paris', country: 'FR' },
        publicSlug: `shop-${Date.now()}`,
      });
    expect(await done()).toMatchObject({ business_profile: true, public_slug: true, first_contact: false });
    expect((await status()).nextStep).toBe('first_member_invited');

    await addMember(stack, fresh, 'member');
    expect((await stack.http.post('/api/customers').set(fresh.auth).send({ kind: 'person', name: 'Ada' })).status).toBe(
      201,
    );
    expect(
      (
        await stack.http
          .post('/api/rdv/services')
          .set(fresh.auth)
          .send({ name: 'Cut', durationMinutes: 30, priceCents: 2500 })
      ).status,
    ).toBe(201);
    await uploadFile(stack, fresh, 'hello.txt', 'hello');
    const now = await status();
    expect(await done()).toMatchObject({
      first_member_invited: true,
      first_contact: true,
      first_service: true,
      first_file: true,
      first_invoice: false,
    });
    expect(now).toMatchObject({ completed: 6, total: 8, percent: 75, nextStep: 'first_invoice' });

    // The welcome path of a member lists what they can do.
    const member = await addMember(stack, fresh, 'member');
    const welcome = (await stack.http.get('/api/onboarding/welcome').set(member.auth)).body;
    expect(welcome.greeting).toContain(fresh.org.name);
    expect(welcome.steps.map((s: { key: string }) => s.key)).toEqual(['first_contact', 'first_file']);

    const dismissed = await stack.http.post('/api/onboarding/dismiss').set(fresh.auth);
    expect(dismissed.body.dismissed).toBe(true);
    expect((await stack.http.post('/api/onboarding/dismiss').set(fresh.auth)).body.dismissedAt).toBe(
      dismissed.body.dismissedAt,
    );
    expect((await status(member)).dismissed).toBe(false);
    expect((await stack.http.delete('/api/onboarding/dismiss').set(fresh.auth)).body.dismissed).toBe(false);
  });

  it('counts a colleague invited only while the invitation is pending or accepted, or someone joined', async () => {
    const fresh = await createAccount(stack, { tier: 'pro' });
    const invited = async () =>
      ((await stack.http.get('/api/onboarding').set(fresh.auth)).body.steps as { key: string; done: boolean }[]).find(
        (s) => s.key === 'first_member_invited',
      )!.done;
    const invite = async () =>
      (
        await stack.http
          .post(`/orgs/${fresh.tenantId}/invite`)
          .set(fresh.auth)
          .send({ email: uniqueEmail('invitee'), role: 'member' })
          .expect(201)
      ).body as { id: string };
    expect(await invited()).toBe(false);

    // Revoked: not done.
    const revoked = await invite();
    expect(await invited()).toBe(true);
    expect((await stack.http.delete(`/orgs/${fresh.tenantId}/invites/${revoked.id}`).set(fresh.auth)).status).toBe(204);
    expect(await invited()).toBe(false);

    // Expired without being accepted: not done either (nobody can join with it any more).
    const expired = await invite();
    await stack.services.orm.em
      .fork()
      .getConnection()
      .execute(`update invitations set expires_at = now() - interval '1 day' where id = ?`, [expired.id]);
    expect(await invited()).toBe(false);

    // Pending: done. Accepted: done, as is a colleague who joined.
    const pending = await invite();
    expect(await invited()).toBe(true);
    await stack.services.orm.em
      .fork()
      .getConnection()
      .execute(`update invitations set accepted_at = now(), expires_at = now() - interval '1 day' where id = ?`, [
        pending.id,
      ]);
    expect(await invited()).toBe(true);
    const other = await createAccount(stack, { tier: 'pro' });
    await addMember(stack, other, 'member');
    const joined = (
      (await stack.http.get('/api/onboarding').set(other.auth)).body.steps as { key: string; done: boolean }[]
    ).find((s) => s.key === 'first_member_invited')!;
    expect(joined.done).toBe(true);
  });
});
