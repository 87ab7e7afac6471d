import { authenticator } from 'otplib';
import { createAppPassword } from '../support/appPasswords';
import { addMember, createAccount, DEFAULT_PASSWORD, type Account } from '../support/factories';
import { createEmployee, punchAt } from '../support/hr';
import { expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { customerOf, invoicingOrg, issued } from '../core/invoices/support';

/** The account's own data: GET /auth/me/export and DELETE /auth/me (docs/identity.md, "Your data"). */
describe('your data: export and deletion', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { ...relaxedLimits, ACCOUNT_EXPORTS_PER_HOUR: '3' }, workers: false });
  });
  afterAll(() => stack.close());

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    stack.services.orm.em.fork().execute<T[]>(text, params);

  /** A member of the owner's organisation (admin) with an HR record, punches, an app password and an invoice issued. */
  async function employeeOf(owner: Account) {
    const member = await addMember(stack, owner, 'admin');
    const employee = await createEmployee(stack, owner, {
      firstName: 'Marie',
      lastName: 'Curie',
      email: member.email,
      userId: member.user.id,
    });
    await punchAt(stack, owner, employee.id, 'in', new Date(Date.now() - 86_400_000).toISOString());
    return { member, employee };
  }

  async function exportOf(account: Account) {
    const res = await stack.http.get('/auth/me/export').set(account.auth).buffer(true);
    return { res, text: res.text, doc: JSON.parse(res.text) as Record<string, unknown> & { hr: HrRecord[] } };
  }
  type HrRecord = { id: string; firstName: string; clockEvents: { id: string }[]; leaveRequests: unknown[] };

  it("exports the member's own data across the suite, 10,000 punches included, and nothing of another member", async () => {
    const owner = await invoicingOrg(stack);
    const { member, employee } = await employeeOf(owner);
    const ownerEmployee = await createEmployee(stack, owner, { firstName: 'Pierre', lastName: 'Owner' });
    await punchAt(stack, owner, ownerEmployee.id, 'in', new Date(Date.now() - 86_400_000).toISOString());
    await createAppPassword(stack, member, ['caldav']);
    await createAppPassword(stack, owner, ['webdav']);
    // Years of punches: 10,000 rows written directly (the API would take minutes to make them).
    await sql(
      `insert into hr_clock_events (id, tenant_id, created_at, employee_id, kind, at, time_zone, source)
        select gen_random_uuid(), ?, now(), ?, case when i % 2 = 0 then 'in' else 'out' end,
          timestamptz '2020-01-01 08:00Z' + i * interval '4 hours', 'Europe/Paris', 'web'
        from generate_series(1, 10000) i`,
      [owner.tenantId, employee.id],
    );

    const started = Date.now();
    const { res, text, doc } = await exportOf(member);
    console.log(`export of 10,001 punches: ${Date.now() - started} ms, ${(text.length / 1e6).toFixed(1)} MB`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="my-data-/);
    expect(doc).toMatchObject({
      format: 'platform-suite.account-export/1',
      account: { id: member.user.id, email: member.email, emailConfirmedAt: expect.any(String) },
      memberships: expect.arrayContaining([
        expect.objectContaining({ organizationId: owner.tenantId, roles: ['admin'] }),
      ]),
      sessions: [expect.objectContaining({ organizationId: owner.tenantId, lastUsedAt: expect.any(String) })],
      appPasswords: [expect.objectContaining({ name: expect.any(String), scopes: ['caldav'] })],
      secondFactors: { totp: null, passkeys: [] },
    });
    expect(doc.hr).toHaveLength(1);
    expect(doc.hr[0]).toMatchObject({ id: employee.id, firstName: 'Marie', leaveRequests: [] });
    expect(doc.hr[0].clockEvents).toHaveLength(10_001);
    expect(new Set(doc.hr[0].clockEvents.map((e) => e.id)).size).toBe(10_001);
    expect(doc.auditEntries).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'account.exported' })]));
    // Never a secret, and nothing of the owner (same organisation).
    expect(text).not.toMatch(/secret|hash|password_|"token/i);
    for (const theirs of [owner.email, ownerEmployee.id, owner.tokens.refreshToken]) expect(text).not.toContain(theirs);
    const [exported] = await sql('select ip from audit_entries where action = ? and actor_id = ?', [
      'account.exported',
      member.user.id,
    ]);
    expect(exported).toBeDefined();
  });

  it('limits exports per account and hour (429 with Retry-After)', async () => {
    const a = await createAccount(stack);
    for (let i = 0; i < 3; i++) expect((await stack.http.get('/auth/me/export').set(a.auth)).status).toBe(200);
    const limited = await stack.http.get('/auth/me/export').set(a.auth);
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses a deletion without a right proof, and changes nothing', async () => {
    const a = await createAccount(stack);
    expectProblem(await stack.http.delete('/auth/me').set(a.auth).send({}), 400, 'validation_failed');
    expectProblem(await stack.http.delete('/auth/me').set(a.auth), 400, 'validation_failed');
    expectProblem(
      await stack.http.delete('/auth/me').set(a.auth).send({ password: 'not my password' }),
      400,
      'current_password_incorrect',
    );
    expectProblem(
      await stack.http.delete('/auth/me').set(a.auth).send({ password: a.password, code: '123456' }),
      400,
      'validation_failed',
    );
    expectProblem(await stack.http.delete('/auth/me').set(a.auth).send({ code: '123456' }), 400, 'mfa_not_enrolled');
    expectProblem(await stack.http.delete('/auth/me').send({ password: a.password }), 401, 'token_missing');
    expect((await stack.http.get('/auth/me').set(a.auth)).status).toBe(200);
  });

  it('answers 409 last_owner naming the organisations that have other members', async () => {
    const owner = await createAccount(stack);
    await addMember(stack, owner, 'member');
    const res = await stack.http.delete('/auth/me').set(owner.auth).send({ password: owner.password });
    expectProblem(res, 409, 'last_owner');
    expect(res.body.detail).toContain(owner.org.name);
    expect(res.body.errors).toEqual([{ field: `organizations.${owner.tenantId}`, message: owner.org.name }]);
    expect((await stack.http.get('/auth/me').set(owner.auth)).status).toBe(200);
    const [{ n }] = await sql<{ n: number }>('select count(*)::int as n from memberships where user_id = ?', [
      owner.user.id,
    ]);
    expect(n).toBe(1);
  });

  it('answers 409 subscription_active while the paid subscription of an organisation it would close still renews', async () => {
    const a = await createAccount(stack);
    await sql("update subscriptions set tier = 'pro', stripe_subscription_id = ? where tenant_id = ?", [
      `sub_${a.user.id}`,
      a.tenantId,
    ]);
    const res = await stack.http.delete('/auth/me').set(a.auth).send({ password: a.password });
    expectProblem(res, 409, 'subscription_active');
    expect(res.body.errors).toEqual([{ field: `organizations.${a.tenantId}`, message: a.org.name }]);
    await sql('update subscriptions set cancel_at_period_end = true where tenant_id = ?', [a.tenantId]);
    expect((await stack.http.delete('/auth/me').set(a.auth).send({ password: a.password })).status).toBe(200);
  });

  it('deletes the account: tokens refused at once, seats freed, records kept under the pseudonym, the address free', async () => {
    const owner = await invoicingOrg(stack);
    const { member, employee } = await employeeOf(owner);
    const customer = await customerOf(stack, owner);
    const invoice = await issued(stack, member, customer.id);
    await createAppPassword(stack, member, ['caldav']);
    const before = await stack.http.get('/auth/me').set(member.auth);
    expect(before.status).toBe(200);
    const personal = (before.body.memberships as { id: string }[])
      .map((m) => m.id)
      .filter((id) => id !== owner.tenantId);
    expect(personal).toHaveLength(1);

    const res = await stack.http.delete('/auth/me').set(member.auth).send({ password: DEFAULT_PASSWORD });
    expect(res.status).toBe(200);
    const pseudonym = `deleted-user-${member.user.id.replace(/-/g, '').slice(0, 8)}`;
    expect(res.body).toEqual({
      pseudonym,
      organizationsLeft: expect.arrayContaining([owner.tenantId, ...personal]),
      organizationsSuspended: personal,
    });

    // The access token and the refresh token are refused from the next request on.
    expect((await stack.http.get('/auth/me').set(member.auth)).status).toBe(401);
    expect((await stack.http.post('/auth/refresh').send({ refreshToken: member.tokens.refreshToken })).status).toBe(
      401,
    );
    expectProblem(
      await stack.http.post('/auth/login').send({ email: member.email, password: DEFAULT_PASSWORD }),
      401,
      'invalid_credentials',
    );
    // Nothing of the account is left in identity; its seat is free.
    for (const table of ['users', 'memberships', 'user_sessions', 'identity_app_passwords']) {
      const column = table === 'users' ? 'id' : 'user_id';
      const [{ n }] = await sql<{ n: number }>(`select count(*)::int as n from ${table} where ${column} = ?`, [
        member.user.id,
      ]);
      expect([table, n]).toEqual([table, 0]);
    }
    const members = await stack.http.get(`/orgs/${owner.tenantId}/members`).set(owner.auth);
    expect(members.body.items.map((m: { userId?: string; id?: string }) => m.userId ?? m.id)).not.toContain(
      member.user.id,
    );
    // The organisation keeps its records: the issued invoice, the HR file and its punches under the pseudonym.
    expect((await stack.http.get(`/api/invoices/${invoice.id}`).set(owner.auth)).body).toMatchObject({
      id: invoice.id,
      number: invoice.number,
      status: 'issued',
    });
    expect((await stack.http.get(`/api/rh/employees/${employee.id}`).set(owner.auth)).body).toMatchObject({
      firstName: pseudonym,
      lastName: '',
      email: null,
      userId: null,
    });
    const punches = await stack.http.get(`/api/rh/clock-events?employeeId=${employee.id}`).set(owner.auth);
    expect(punches.status).toBe(200);
    expect(punches.body.items).toHaveLength(1);
    // The personal organisation is suspended; the audit trail keeps rows, without the address.
    const [org] = await sql<{ suspended_at: Date | null }>('select suspended_at from organizations where id = ?', [
      personal[0],
    ]);
    expect(org.suspended_at).not.toBeNull();
    const trail = await sql<{ action: string; ip: string | null; data: Record<string, unknown> }>(
      'select action, ip, data from audit_entries where actor_id = ? order by created_at',
      [member.user.id],
    );
    expect(trail.map((e) => e.action)).toEqual(expect.arrayContaining(['org.member_left', 'account.deleted']));
    expect(trail.find((e) => e.action === 'account.deleted')?.data).toMatchObject({ pseudonym });
    expect(trail.filter((e) => e.action !== 'account.deleted').every((e) => e.ip === null)).toBe(true);
    expect(JSON.stringify(trail)).not.toContain(member.email);

    // The address signs up again as a new account.
    const again = await createAccount(stack, { email: member.email });
    expect(again.user.id).not.toBe(member.user.id);
    expect((await stack.http.get('/auth/me').set(again.auth)).status).toBe(200);
  });

  it('takes a factor check instead of the password: a wrong code is 401, a recovery code deletes', async () => {
    const a = await createAccount(stack);
    const started = await stack.http.post('/auth/mfa/totp').set(a.auth);
    const confirmed = await stack.http
      .post('/auth/mfa/totp/confirm')
      .set(a.auth)
      .send({ code: authenticator.generate(started.body.secret) });
    expect(confirmed.status).toBe(200);
    expectProblem(await stack.http.delete('/auth/me').set(a.auth).send({ code: '000000' }), 401, 'mfa_code_invalid');
    expect((await stack.http.get('/auth/me').set(a.auth)).status).toBe(200);
    const res = await stack.http.delete('/auth/me').set(a.auth).send({ code: confirmed.body.recoveryCodes[0] });
    expect(res.status).toBe(200);
    expect((await stack.http.get('/auth/me').set(a.auth)).status).toBe(401);
    const [{ n }] = await sql<{ n: number }>(
      'select count(*)::int as n from identity_totp_factors f full join identity_recovery_codes c on c.user_id = f.user_id where coalesce(f.user_id, c.user_id) = ?',
      [a.user.id],
    );
    expect(n).toBe(0);
  });

  it('lets a platform administrator delete an account, with the same last-owner rule, never their own', async () => {
    const admin = await createAccount(stack, { platformAdmin: true });
    const target = await createAccount(stack);
    const owner = await createAccount(stack);
    await addMember(stack, owner, 'member');
    expectProblem(
      await stack.http.delete(`/admin/users/${target.user.id}`).set(owner.auth),
      403,
      'platform_admin_required',
    );
    expectProblem(await stack.http.delete(`/admin/users/${owner.user.id}`).set(admin.auth), 409, 'last_owner');
    expectProblem(await stack.http.delete(`/admin/users/${admin.user.id}`).set(admin.auth), 409, 'cannot_delete_self');
    const res = await stack.http.delete(`/admin/users/${target.user.id}`).set(admin.auth);
    expect(res.status).toBe(200);
    expect(res.body.organizationsSuspended).toEqual([target.tenantId]);
    expect((await stack.http.get('/auth/me').set(target.auth)).status).toBe(401);
    expectProblem(await stack.http.delete(`/admin/users/${target.user.id}`).set(admin.auth), 404, 'not_found');
    const [entry] = await sql<{ actor_id: string }>(
      'select actor_id from audit_entries where action = ? and target_id = ?',
      ['admin.user_deleted', target.user.id],
    );
    expect(entry.actor_id).toBe(admin.user.id);
  });
});
