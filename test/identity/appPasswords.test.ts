import { AppError } from '../../lib/errors';
import { AuditEntry } from '../../entities/platform/audit';
import { verifyAppPassword } from '../../domain/identity/verifyAppPassword';
import { createAppPassword } from '../support/appPasswords';
import { addMember, createAccount, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

/**
 * App passwords (the Basic credentials of DAV clients): created, listed and revoked through the API by a member;
 * verified as the CalDAV and WebDAV surfaces do (verifyAppPassword) for every refusal the contract names. The
 * sign-in throttle keeps its default limits: each test uses its own client address.
 */
describe('app passwords', () => {
  let stack: TestStack;
  let owner: Account;
  let address = 0;
  const nextAddress = () => `192.0.2.${++address}`;
  const verify = (login: string, secret: string, scope: 'caldav' | 'webdav' = 'caldav', from = nextAddress()) =>
    verifyAppPassword(stack.services, login, secret, scope, from);

  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
  });
  afterAll(() => stack?.close());

  it('creates one shown once, lists it without its secret, records its use, and audits it', async () => {
    const res = await stack.http
      .post('/auth/app-passwords')
      .set(owner.auth)
      .send({ name: '  Phone calendar ', scopes: ['webdav', 'caldav'] });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({ name: 'Phone calendar', scopes: ['caldav', 'webdav'] });
    expect(res.body.password).toMatch(/^ps_[A-Za-z0-9_-]{43}$/);

    const listed = await stack.http.get('/auth/app-passwords').set(owner.auth);
    expect(listed.status).toBe(200);
    const item = listed.body.items.find((i: { id: string }) => i.id === res.body.id);
    expect(item).toEqual({
      id: res.body.id,
      name: 'Phone calendar',
      scopes: ['caldav', 'webdav'],
      createdAt: res.body.createdAt,
      lastUsedAt: null,
    });
    expect(JSON.stringify(listed.body)).not.toContain(res.body.password);

    // A DAV client signs in with the e-mail in any case.
    await expect(verify(owner.email.toUpperCase(), res.body.password, 'webdav')).resolves.toEqual({
      userId: owner.user.id,
      tenantId: owner.tenantId,
      appPasswordId: res.body.id,
      email: owner.email,
    });
    await eventually(
      async () => {
        const again = await stack.http.get('/auth/app-passwords').set(owner.auth);
        return again.body.items.find((i: { id: string; lastUsedAt: string | null }) => i.id === res.body.id)
          ?.lastUsedAt;
      },
      { what: 'lastUsedAt recorded' },
    );

    const entries = await stack.services.orm.em
      .fork()
      .find(AuditEntry, { action: 'app_password.created', targetId: res.body.id });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: owner.user.id, tenantId: owner.tenantId });
    expect(JSON.stringify(entries[0].data)).not.toContain(res.body.password);
  });

  it('refuses a wrong secret, another login, a scope not granted and a malformed body', async () => {
    const { login, password } = await createAppPassword(stack, owner, ['caldav']);
    await expect(verify(login, password, 'caldav')).resolves.not.toBeNull();
    await expect(verify(login, password, 'webdav')).resolves.toBeNull();
    await expect(verify(login, `${password.slice(0, -1)}${password.endsWith('A') ? 'B' : 'A'}`)).resolves.toBeNull();
    await expect(verify(login, owner.password)).resolves.toBeNull();
    const other = await createAccount(stack);
    await expect(verify(other.email, password)).resolves.toBeNull();

    for (const [body, field] of [
      [{ name: 'x', scopes: [] }, 'scopes'],
      [{ name: 'x', scopes: ['carddav'] }, 'scopes'],
      [{ name: ' ', scopes: ['caldav'] }, 'name'],
      [{ scopes: ['caldav'] }, 'name'],
    ] as const)
      expectFieldErrors(await stack.http.post('/auth/app-passwords').set(owner.auth).send(body), field);
  });

  it('stops working when revoked: the next request is refused, a second revocation is a 404', async () => {
    const { login, password, id } = await createAppPassword(stack, owner, ['webdav']);
    const member = await addMember(stack, owner);
    // Another member's password is not theirs to revoke, nor to see.
    expectProblem(await stack.http.delete(`/auth/app-passwords/${id}`).set(member.auth), 404, 'not_found');
    const theirs = await stack.http.get('/auth/app-passwords').set(member.auth);
    expect(theirs.body.items).toEqual([]);

    expect((await stack.http.delete(`/auth/app-passwords/${id}`).set(owner.auth)).status).toBe(204);
    await expect(verify(login, password, 'webdav')).resolves.toBeNull();
    expectProblem(await stack.http.delete(`/auth/app-passwords/${id}`).set(owner.auth), 404, 'not_found');
    const listed = await stack.http.get('/auth/app-passwords').set(owner.auth);
    expect(listed.body.items.map((i: { id: string }) => i.id)).not.toContain(id);
    const revoked = await stack.services.orm.em
      .fork()
      .count(AuditEntry, { action: 'app_password.revoked', targetId: id });
    expect(revoked).toBe(1);
  });

  it('stops working for a member removed from the organisation, and for a disabled account', async () => {
    const member = await addMember(stack, owner);
    const removed = await createAppPassword(stack, member, ['caldav']);
    await expect(verify(removed.login, removed.password)).resolves.toMatchObject({ tenantId: owner.tenantId });
    expect((await stack.http.delete(`/orgs/${owner.tenantId}/members/${member.user.id}`).set(owner.auth)).status).toBe(
      204,
    );
    await expect(verify(removed.login, removed.password)).resolves.toBeNull();

    const admin = await createAccount(stack, { platformAdmin: true });
    const user = await createAccount(stack);
    const disabled = await createAppPassword(stack, user, ['caldav', 'webdav']);
    await expect(verify(disabled.login, disabled.password)).resolves.not.toBeNull();
    expect((await stack.http.post(`/admin/users/${user.user.id}/disable`).set(admin.auth)).status).toBe(200);
    await expect(verify(disabled.login, disabled.password)).resolves.toBeNull();
    // Enabling the account again does not revive it.
    expect((await stack.http.post(`/admin/users/${user.user.id}/enable`).set(admin.auth)).status).toBe(200);
    await expect(verify(disabled.login, disabled.password)).resolves.toBeNull();
  });

  it('counts failures as failed sign-ins of the address: past the limit a 429 with Retry-After', async () => {
    const account = await createAccount(stack);
    const { login, password } = await createAppPassword(stack, account, ['caldav']);
    const from = nextAddress();
    const limit = stack.services.config.SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS;
    for (let i = 0; i < limit; i++) await expect(verify(login, `ps_wrong${i}`, 'caldav', from)).resolves.toBeNull();
    const refused = await verify(login, 'ps_wrong', 'caldav', from).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(Number((refused as AppError).headers?.['Retry-After'])).toBeGreaterThan(0);
    // A password sign-in of the account from that address is throttled too: the counts are shared.
    const login429 = await stack.http
      .post('/auth/login')
      .set('X-Forwarded-For', from)
      .send({ email: account.email, password: account.password });
    expectProblem(login429, 429, 'rate_limited');
    // The right app password is no guess: it still works, from there and elsewhere.
    await expect(verify(login, password, 'caldav', from)).resolves.not.toBeNull();
  });
});
