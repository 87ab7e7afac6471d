import { AuditEntry } from '../../entities/platform/audit';
import { Broadcast } from '../../entities/platform/mail';
import { addMember, createAccount, uniqueEmail, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem, mailsTo, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

describe('/admin', () => {
  let stack: TestStack;
  let root: Account;
  let user: Account;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits });
    root = await createAccount(stack, { platformAdmin: true, email: uniqueEmail('root') });
    user = await createAccount(stack, { email: uniqueEmail('plain'), displayName: 'Plain Person' });
  });
  afterAll(() => stack.close());

  const get = (path: string, auth: Account['auth'] = root.auth) => stack.http.get(path).set(auth);
  const post = (path: string, body?: object, auth: Account['auth'] = root.auth) =>
    stack.http.post(path).set(auth).send(body);

  it('refuses every admin route without a token (401) and to non-administrators (403)', async () => {
    const id = user.user.id;
    const routes: [string, string, object?][] = [
      ['get', '/admin/users'],
      ['get', '/admin/organizations'],
      ['get', '/admin/sessions'],
      ['get', '/admin/audit'],
      ['get', '/admin/stats/overview'],
      ['get', '/admin/stats/signups'],
      ['get', '/admin/outbox'],
      ['post', '/admin/broadcast-email', { subject: 'Hi', text: 'Hello' }],
      ['post', `/admin/users/${id}/disable`],
      ['post', `/admin/users/${id}/enable`],
      ['post', `/admin/users/${id}/platform-admin`],
      ['delete', `/admin/users/${id}/platform-admin`],
      ['delete', `/admin/sessions/${stack.services.tokens.verifyAccess(user.tokens.accessToken).sid}`],
      ['post', `/admin/organizations/${user.tenantId}/suspend`, {}],
      ['post', `/admin/organizations/${user.tenantId}/unsuspend`],
    ];
    for (const [method, path, body] of routes) {
      const call = () =>
        method === 'get'
          ? stack.http.get(path)
          : method === 'post'
            ? stack.http.post(path).send(body)
            : stack.http.delete(path);
      expectProblem(await call(), 401, 'token_missing');
      expectProblem(await call().set(user.auth), 403, 'platform_admin_required');
    }
    // Nothing happened.
    expect((await stack.http.get('/users/me').set(user.auth)).body.isPlatformAdmin).toBe(false);
  });

  it('searches accounts by e-mail or name, newest first, page by page', async () => {
    const res = await get('/admin/users?q=PLAIN');
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      expect.objectContaining({
        id: user.user.id,
        email: user.email,
        displayName: 'Plain Person',
        disabledAt: null,
        emailConfirmed: true,
      }),
    ]);
    expect((await get('/admin/users?q=Person')).body.items.map((u: { id: string }) => u.id)).toEqual([user.user.id]);
    expect((await get('/admin/users?q=%25')).body.items).toEqual([]);

    const first = await get('/admin/users?limit=1');
    expect(first.body.items).toHaveLength(1);
    expect(first.body.nextCursor).toEqual(first.body.items[0].id);
    const second = await get(`/admin/users?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body.items[0].id < first.body.items[0].id).toBe(true);
    expectFieldErrors(await get('/admin/users?limit=1000'), 'limit');
    expectFieldErrors(await get('/admin/users?unknown=1'), 'unknown');
  });

  it('lists organisations with member counts and tiers', async () => {
    await addMember(stack, user, 'member');
    const res = await get(`/admin/organizations?q=${encodeURIComponent(user.org.name)}`);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      expect.objectContaining({
        id: user.tenantId,
        name: user.org.name,
        memberCount: 2,
        tier: 'free',
        suspended: false,
        suspendedAt: null,
      }),
    ]);
    // The slug is searched too (its random suffix, any case); the search text's wildcards are literal.
    const bySlug = await get(`/admin/organizations?q=${user.org.slug.slice(-6).toUpperCase()}`);
    expect(bySlug.body.items.map((o: { id: string }) => o.id)).toEqual([user.tenantId]);
    expect((await get('/admin/organizations?q=%25')).body.items).toEqual([]);
    const first = await get('/admin/organizations?limit=1');
    const second = await get(`/admin/organizations?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body.items[0].id < first.body.items[0].id).toBe(true);
  });

  it('lists active sessions and ends one', async () => {
    const victim = await createAccount(stack);
    const sid = stack.services.tokens.verifyAccess(victim.tokens.accessToken).sid;
    expectFieldErrors(await get('/admin/sessions?userId=me'), 'userId');
    const res = await get(`/admin/sessions?userId=${victim.user.id}`);
    expect(res.body.items).toEqual([
      expect.objectContaining({
        id: sid,
        userId: victim.user.id,
        userEmail: victim.email,
        organizationId: victim.tenantId,
        current: false,
      }),
    ]);
    // Without a user: everyone's, newest first, page by page.
    const first = await get('/admin/sessions?limit=1');
    expect(first.body).toEqual({
      items: [expect.objectContaining({ id: sid, userId: victim.user.id })],
      nextCursor: sid,
    });
    const second = await get(`/admin/sessions?limit=1&cursor=${sid}`);
    expect(second.body.items[0].id < sid).toBe(true);
    expect((await stack.http.delete(`/admin/sessions/${sid}`).set(root.auth)).status).toBe(204);
    expectProblem(await stack.http.get('/users/me').set(victim.auth), 401, 'token_revoked');
    expect((await get(`/admin/sessions?userId=${victim.user.id}`)).body.items).toEqual([]);
    expectProblem(await stack.http.delete(`/admin/sessions/${sid}`).set(root.auth), 404, 'not_found');
    expectFieldErrors(await stack.http.delete('/admin/sessions/nope').set(root.auth), 'id');
  });

  it('disables an account (every token revoked at once) and enables it again', async () => {
    const target = await createAccount(stack);
    const res = await post(`/admin/users/${target.user.id}/disable`);
    expect(res.status).toBe(200);
    expect(res.body.disabledAt).toEqual(expect.any(String));
    expectProblem(await stack.http.get('/users/me').set(target.auth), 401, 'token_revoked');
    expectProblem(
      await stack.http.post('/auth/refresh').send({ refreshToken: target.tokens.refreshToken }),
      401,
      'refresh_token_invalid',
    );
    expectProblem(
      await stack.http.post('/auth/login').send({ email: target.email, password: target.password }),
      401,
      'account_disabled',
    );

    expect((await post(`/admin/users/${target.user.id}/enable`)).body.disabledAt).toBeNull();
    expect((await stack.http.post('/auth/login').send({ email: target.email, password: target.password })).status).toBe(
      200,
    );
    expectProblem(await post(`/admin/users/${root.user.id}/disable`), 409, 'cannot_disable_self');
    expectProblem(await post('/admin/users/00000000-0000-7000-8000-000000000000/disable'), 404, 'not_found');
  });

  it('suspends an organisation: its entitlements say so at once', async () => {
    const org = await createAccount(stack);
    const before = await stack.http.get('/api/entitlements/me').set(org.auth);
    expect(before.body).toMatchObject({ suspended: false });
    const res = await post(`/admin/organizations/${org.tenantId}/suspend`, { reason: 'Unpaid invoices' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: org.tenantId, suspended: true, suspendedReason: 'Unpaid invoices' });
    expect((await stack.http.get('/api/entitlements/me').set(org.auth)).body).toMatchObject({
      suspended: true,
      modules: [],
    });
    expect((await post(`/admin/organizations/${org.tenantId}/unsuspend`)).body).toMatchObject({
      suspended: false,
      suspendedReason: null,
    });
    expect((await stack.http.get('/api/entitlements/me').set(org.auth)).body).toMatchObject({
      suspended: false,
      modules: before.body.modules,
    });
    expectFieldErrors(await post(`/admin/organizations/${org.tenantId}/suspend`, { reason: '' }), 'reason');
    expectProblem(
      await post('/admin/organizations/00000000-0000-7000-8000-000000000000/suspend', {}),
      404,
      'not_found',
    );
    expectFieldErrors(await post('/admin/organizations/nope/unsuspend'), 'id');
    expectFieldErrors(await get('/admin/organizations?q='), 'q');
  });

  it('grants and revokes platform administration, never to oneself or the last administrator', async () => {
    const next = await createAccount(stack);
    expect((await post(`/admin/users/${next.user.id}/platform-admin`)).body.isPlatformAdmin).toBe(true);
    expect((await get('/admin/stats/overview', next.auth)).status).toBe(200);
    expectProblem(
      await stack.http.delete(`/admin/users/${root.user.id}/platform-admin`).set(root.auth),
      409,
      'cannot_demote_self',
    );
    expectFieldErrors(await post('/admin/users/nope/platform-admin'), 'id');
    expectFieldErrors(await post('/admin/users/nope/enable'), 'id');
    expectProblem(await post('/admin/users/00000000-0000-7000-8000-000000000000/platform-admin'), 404, 'not_found');
    const revoked = await stack.http.delete(`/admin/users/${next.user.id}/platform-admin`).set(root.auth);
    expect(revoked.body.isPlatformAdmin).toBe(false);
    expectProblem(await get('/admin/stats/overview', next.auth), 403, 'platform_admin_required');
  });

  it('leaves an administrator when two demote each other at the same time', async () => {
    const [a, b] = await Promise.all([
      createAccount(stack, { platformAdmin: true }),
      createAccount(stack, { platformAdmin: true }),
    ]);
    const [x, y] = await Promise.all([
      stack.http.delete(`/admin/users/${b.user.id}/platform-admin`).set(a.auth),
      stack.http.delete(`/admin/users/${a.user.id}/platform-admin`).set(b.auth),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 403]);
    const admins = await Promise.all(
      [a, b].map(async (u) => (await stack.http.get('/users/me').set(u.auth)).body.isPlatformAdmin),
    );
    expect(admins.sort()).toEqual([false, true]);
    // Put things back for the figures below.
    await stack.http.delete(`/admin/users/${(x.status === 200 ? a : b).user.id}/platform-admin`).set(root.auth);
  });

  it('answers platform figures and daily sign-ups', async () => {
    const overview = await get('/admin/stats/overview');
    expect(overview.status).toBe(200);
    expect(overview.body.users.total).toBeGreaterThanOrEqual(2);
    expect(overview.body).toMatchObject({
      users: {
        total: expect.any(Number),
        confirmed: expect.any(Number),
        disabled: expect.any(Number),
        platformAdmins: 1,
      },
      organizations: { total: expect.any(Number), suspended: 0 },
      activeSessions: expect.any(Number),
      signups: {
        last24h: overview.body.users.total,
        last7d: overview.body.users.total,
        last30d: overview.body.users.total,
      },
      mails: { queued: expect.any(Number), kept: expect.any(Number), sent: 0, failed: 0 },
    });
    const signups = await get('/admin/stats/signups?days=7');
    expect(signups.body.days).toBe(7);
    expect(signups.body.items).toHaveLength(7);
    expect(signups.body.items.at(-1)).toEqual({
      date: new Date().toISOString().slice(0, 10),
      count: overview.body.users.total,
    });
    expect(signups.body.total).toBe(overview.body.users.total);
    expect((await get('/admin/stats/signups')).body.items).toHaveLength(30);
    expectFieldErrors(await get('/admin/stats/signups?days=366'), 'days');
    expectFieldErrors(await get('/admin/stats/signups?days=0'), 'days');
  });

  it('broadcasts a mail to every active confirmed account through the workers, and shows it in the outbox', async () => {
    const res = await post('/admin/broadcast-email', {
      subject: 'Maintenance tonight',
      text: 'We will be back at 2am.',
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      subject: 'Maintenance tonight',
      createdById: root.user.id,
    });
    const done = await eventually(
      () => stack.services.orm.em.fork().findOne(Broadcast, { id: res.body.id, completedAt: { $ne: null } }),
      { what: 'broadcast completed' },
    );
    expect(done.recipients).toBeGreaterThanOrEqual(2);
    await eventually(
      async () =>
        (await mailsTo(stack, user.email, 'broadcast')).every((m) => m.status === 'kept') &&
        (await mailsTo(stack, user.email, 'broadcast')).length === 1,
      { what: 'broadcast kept' },
    );

    const outbox = await get(`/admin/outbox?to=${encodeURIComponent(user.email.toUpperCase())}`);
    expect(outbox.status).toBe(200);
    expect(outbox.body.items).toEqual([
      expect.objectContaining({
        to: user.email,
        template: 'broadcast',
        subject: 'Maintenance tonight',
        text: 'We will be back at 2am.',
        status: 'kept',
      }),
    ]);
    expect((await get('/admin/outbox?status=sent')).body.items).toEqual([]);
    expectFieldErrors(await get('/admin/outbox?status=lost'), 'status');
    expectFieldErrors(await get('/admin/outbox?to=nobody'), 'to');
    expectFieldErrors(await post('/admin/broadcast-email', { subject: ' ', text: 'x' }), 'subject');
    expectFieldErrors(await post('/admin/broadcast-email', { subject: 'x' }), 'text');
  });

  it('keeps an audit log of security events and administrative actions, filtered', async () => {
    await stack.http.post('/auth/login').send({ email: user.email, password: 'wrong-password' });
    const failed = await get(`/admin/audit?action=auth.login_failed&actorId=${user.user.id}`);
    expect(failed.status).toBe(200);
    expect(failed.body.items).toEqual([
      expect.objectContaining({
        action: 'auth.login_failed',
        actorId: user.user.id,
        ip: expect.any(String),
        data: { email: user.email },
      }),
    ]);
    const adminActions = await get(`/admin/audit?actorId=${root.user.id}`);
    const actions = adminActions.body.items.map((e: { action: string }) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'admin.session_revoked',
        'admin.user_disabled',
        'admin.user_enabled',
        'admin.org_suspended',
        'admin.org_unsuspended',
        'admin.granted',
        'admin.revoked',
        'admin.broadcast_sent',
      ]),
    );
    const suspended = await get(`/admin/audit?action=admin.org_suspended`);
    expect(suspended.body.items[0]).toMatchObject({ targetType: 'organization', data: { reason: 'Unpaid invoices' } });
    const tenantId = suspended.body.items[0].tenantId as string;
    expect(
      (await get(`/admin/audit?tenantId=${tenantId}`)).body.items.every(
        (e: { tenantId: string }) => e.tenantId === tenantId,
      ),
    ).toBe(true);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await get(`/admin/audit?since=${future}`)).body.items).toEqual([]);
    expect((await get(`/admin/audit?until=${encodeURIComponent(new Date(0).toISOString())}`)).body.items).toEqual([]);
    const recent = (
      await get(
        `/admin/audit?actorId=${root.user.id}&since=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&until=${future}`,
      )
    ).body.items;
    expect(recent.map((e: { id: string }) => e.id)).toEqual(adminActions.body.items.map((e: { id: string }) => e.id));
    const first = await get(`/admin/audit?actorId=${root.user.id}&limit=1`);
    expect(first.body.items[0].id).toBe(adminActions.body.items[0].id);
    expect(
      (await get(`/admin/audit?actorId=${root.user.id}&limit=1&cursor=${first.body.nextCursor}`)).body.items[0].id,
    ).toBe(adminActions.body.items[1].id);
    expect(await stack.services.orm.em.fork().count(AuditEntry, {})).toBeGreaterThan(10);
    expectFieldErrors(await get('/admin/audit?since=yesterday'), 'since');
    expectFieldErrors(await get('/admin/audit?actorId=me'), 'actorId');
    expectFieldErrors(await get('/admin/audit?action=DROP TABLE'), 'action');
  });
});
