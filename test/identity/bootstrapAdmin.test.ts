import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { User } from '../../entities/identity/user';
import { ensurePlatformAdmin } from '../../domain/identity/bootstrapAdmin';
import { bearer, createAccount, uniqueEmail } from '../support/factories';
import { expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { scaled } from '../support/timeScale';

const run = promisify(execFile);

/**
 * `npm run admin:create` (bin/create-admin.ts, the real command in a process of its own) never grants platform
 * rights to an account whose address is unconfirmed or whose password the operator did not set.
 */
describe('npm run admin:create', () => {
  // Each run is a tsx process compiling bin/create-admin.ts: seconds on a loaded machine.
  jest.setTimeout(scaled(120_000));
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits, workers: false });
  });
  afterAll(() => stack.close());

  const OPERATOR = 'the operator passphrase';
  const adminCreate = async (email: string, password: string) => {
    const env = { ...process.env, ...stack.env, LOG_LEVEL: 'silent' };
    try {
      const { stdout, stderr } = await run(
        process.execPath,
        [require.resolve('tsx/cli'), 'bin/create-admin.ts', email, password],
        { env },
      );
      return { code: 0, out: stdout + stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: e.stdout + e.stderr };
    }
  };
  const signIn = (email: string, password: string) => stack.http.post('/auth/login').send({ email, password });
  const userOf = (email: string) => stack.services.orm.em.fork().findOneOrFail(User, { email: email.toLowerCase() });

  it('takes over an account pre-registered with an unconfirmed address: the squatter is out, the operator is the administrator', async () => {
    const email = uniqueEmail('ops');
    // A stranger registers the operator's address first, with a password of their own, and never confirms it.
    await stack.http
      .post('/auth/register')
      .send({ email, password: 'the squatter passphrase', displayName: 'Squatter' })
      .expect(202);
    const squatter = await signIn(email, 'the squatter passphrase').expect(200);

    const result = await adminCreate(email, OPERATOR);
    expect(result).toMatchObject({ code: 0 });
    expect(result.out).toMatch(/not confirmed/);
    expect(result.out).toMatch(/password set, every session ended, address marked confirmed/);

    // The squatter's password no longer signs in, and their session ended at once (access and refresh token).
    expectProblem(await signIn(email, 'the squatter passphrase'), 401, 'invalid_credentials');
    expectProblem(await stack.http.get('/auth/me').set(bearer(squatter.body.accessToken)), 401, 'token_revoked');
    expectProblem(
      await stack.http.post('/auth/refresh').send({ refreshToken: squatter.body.refreshToken }),
      401,
      'refresh_token_invalid',
    );
    // The operator's passphrase does, as a platform administrator, and the address counts as confirmed.
    const operator = await signIn(email, OPERATOR).expect(200);
    await stack.http.get('/admin/users').set(bearer(operator.body.accessToken)).expect(200);
    expect(await userOf(email)).toMatchObject({ isPlatformAdmin: true, emailConfirmedAt: expect.any(Date) });
  });

  it('refuses a confirmed account whose password is not the one given, saying why; nothing changes', async () => {
    const someone = await createAccount(stack, { email: uniqueEmail('colleague') });
    const result = await adminCreate(someone.email, OPERATOR);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/refused/);
    expect(result.out).toMatch(/confirmed address and a different password/);
    expect(await userOf(someone.email)).toMatchObject({ isPlatformAdmin: false });
    expectProblem(await signIn(someone.email, OPERATOR), 401, 'invalid_credentials');
    // Its owner is still signed in, with the same password.
    await stack.http.get('/auth/me').set(someone.auth).expect(200);
    await signIn(someone.email, someone.password).expect(200);

    // With the account's own password (which proves it is the operator's), it is promoted.
    const promoted = await adminCreate(someone.email, someone.password);
    expect(promoted).toMatchObject({ code: 0 });
    expect(promoted.out).toMatch(/is now a platform administrator/);
    expect(await userOf(someone.email)).toMatchObject({ isPlatformAdmin: true });
  });

  it('changes nothing for an existing administrator, whatever password is given', async () => {
    const admin = await createAccount(stack, { email: uniqueEmail('admin'), platformAdmin: true });
    for (const password of [admin.password, 'another long passphrase']) {
      const result = await adminCreate(admin.email, password);
      expect(result).toMatchObject({ code: 0 });
      expect(result.out).toMatch(/is already a platform administrator/);
    }
    await stack.http.get('/admin/users').set(admin.auth).expect(200);
    await signIn(admin.email, admin.password).expect(200);
    expectProblem(await signIn(admin.email, 'another long passphrase'), 401, 'invalid_credentials');
  });
});

describe('ensurePlatformAdmin (ADMIN_EMAIL at npm start)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits, workers: false });
  });
  afterAll(() => stack.close());

  const ensure = (email: string, password: string) =>
    ensurePlatformAdmin({ em: stack.services.orm.em.fork(), revocations: stack.services.revocations }, email, password);
  const userOf = (email: string) => stack.services.orm.em.fork().findOneOrFail(User, { email: email.toLowerCase() });

  it('creates a confirmed administrator when the address has no account, refusing a password against the policy', async () => {
    const email = uniqueEmail('fresh');
    await expect(ensure(email, 'short')).rejects.toMatchObject({ code: 'validation_failed' });
    expect(await ensure(email, 'a fresh long passphrase')).toMatchObject({ outcome: 'created' });
    expect(await userOf(email)).toMatchObject({ isPlatformAdmin: true, emailConfirmedAt: expect.any(Date) });
  });

  it('promotes an unconfirmed account whose password is the one given, confirming it and keeping its sessions', async () => {
    const email = uniqueEmail('mine');
    await stack.http
      .post('/auth/register')
      .send({ email, password: 'my own long passphrase', displayName: 'Mine' })
      .expect(202);
    const signedIn = await stack.http
      .post('/auth/login')
      .send({ email, password: 'my own long passphrase' })
      .expect(200);
    expect(await ensure(email, 'my own long passphrase')).toMatchObject({ outcome: 'promoted' });
    expect(await userOf(email)).toMatchObject({ isPlatformAdmin: true, emailConfirmedAt: expect.any(Date) });
    await stack.http.get('/admin/users').set(bearer(signedIn.body.accessToken)).expect(200);
  });

  it('refuses a disabled account', async () => {
    const disabled = await createAccount(stack);
    await stack.services.orm.em.fork().nativeUpdate(User, { id: disabled.user.id }, { disabledAt: new Date() });
    await expect(ensure(disabled.email, disabled.password)).rejects.toMatchObject({
      status: 409,
      code: 'admin_bootstrap_refused',
      message: expect.stringMatching(/disabled/),
    });
    expect(await userOf(disabled.email)).toMatchObject({ isPlatformAdmin: false });
  });
});
