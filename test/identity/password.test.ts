import { newId } from '../../entities/base';
import { EmailToken } from '../../entities/identity/session';
import { accountLinkQueue } from '../../queues/identity';
import { accountLinksProcessor } from '../../workers/identity/accountLinks';
import { createAccount, uniqueEmail } from '../support/factories';
import {
  accountLinksHandled,
  deliveredMail,
  expectFieldErrors,
  expectProblem,
  linkToken,
  mailsTo,
  relaxedLimits,
} from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

const NEW_PASSWORD = 'a-brand-new-password';

describe('forgot-password and reset-password', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits });
  });
  afterAll(() => stack.close());

  const forgot = (email: string) => stack.http.post('/auth/forgot-password').send({ email });
  const reset = (body: object) => stack.http.post('/auth/reset-password').send(body);
  const login = (email: string, password: string) => stack.http.post('/auth/login').send({ email, password });

  it('answers the same for an existing and an unknown address; only the account gets a link', async () => {
    const a = await createAccount(stack);
    const nobody = uniqueEmail('nobody');
    const [known, unknown] = await Promise.all([forgot(a.email), forgot(nobody)]);
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(known.body).toEqual({ status: 'reset_link_sent' });
    expect(unknown.body).toEqual(known.body);
    await deliveredMail(stack, a.email, 'reset_password');
    await accountLinksHandled(stack);
    expect(await mailsTo(stack, nobody)).toHaveLength(0);
  });

  it('resets the password with the mailed link once, and ends every session of the account', async () => {
    const a = await createAccount(stack);
    const otherDevice = await login(a.email, a.password);
    expect((await forgot(a.email.toUpperCase())).status).toBe(202);
    const token = linkToken(await deliveredMail(stack, a.email, 'reset_password'));

    // A password against the policy does not burn the link.
    expectFieldErrors(await reset({ token, password: 'short' }), 'password');
    expectFieldErrors(await reset({ token, password: a.email }), 'password');

    const done = await reset({ token, password: NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: 'password_reset' });
    expectProblem(await reset({ token, password: 'yet-another-password' }), 400, 'reset_token_invalid');

    expectProblem(await stack.http.get('/users/me').set(a.auth), 401, 'token_revoked');
    expectProblem(
      await stack.http.get('/users/me').set('Authorization', `Bearer ${otherDevice.body.accessToken}`),
      401,
      'token_revoked',
    );
    expectProblem(
      await stack.http.post('/auth/refresh').send({ refreshToken: a.tokens.refreshToken }),
      401,
      'refresh_token_invalid',
    );
    expectProblem(await login(a.email, a.password), 401, 'invalid_credentials');
    const fresh = await login(a.email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    expect((await stack.http.get('/users/me').set('Authorization', `Bearer ${fresh.body.accessToken}`)).status).toBe(
      200,
    );
  });

  it('refuses an expired link, and only the newest link works', async () => {
    const a = await createAccount(stack);
    await forgot(a.email);
    const first = linkToken(await deliveredMail(stack, a.email, 'reset_password'));
    await forgot(a.email);
    const second = linkToken(await deliveredMail(stack, a.email, 'reset_password', 2));
    expect(second).not.toBe(first);
    expectProblem(await reset({ token: first, password: NEW_PASSWORD }), 400, 'reset_token_invalid');
    await stack.services.orm.em
      .fork()
      .nativeUpdate(EmailToken, { user: a.user.id, usedAt: null }, { expiresAt: new Date(Date.now() - 1000) });
    expectProblem(await reset({ token: second, password: NEW_PASSWORD }), 400, 'reset_token_invalid');
  });

  it('mails one link per request even when its job runs again (a stall after its commit), and that link works', async () => {
    const a = await createAccount(stack);
    expect((await forgot(a.email)).status).toBe(202);
    const mailed = await deliveredMail(stack, a.email, 'reset_password');
    await accountLinksHandled(stack);
    const job = (await stack.services.queues.get(accountLinkQueue).getJobs(['completed'])).find(
      (j) => j.data.email === a.email.toLowerCase(),
    )!;
    // The same job taken again once its lock expired, twice at once.
    await Promise.all([0, 1].map(() => accountLinksProcessor.perform(job.data, { services: stack.services, job })));
    expect((await mailsTo(stack, a.email, 'reset_password')).map((m) => m.id)).toEqual([mailed.id]);
    expect((await reset({ token: linkToken(mailed), password: NEW_PASSWORD })).status).toBe(200);
  });

  it('mails one live link when the first run of a request meets a second one in flight', async () => {
    const a = await createAccount(stack);
    // Two workers run the same request at once (one took it over from a stalled one): one token, one mail.
    const job = { id: `account-link.${newId()}`, attemptsMade: 0 } as never;
    const payload = { purpose: 'reset_password' as const, email: a.email, ip: '127.0.0.1' };
    await Promise.all([0, 1].map(() => accountLinksProcessor.perform(payload, { services: stack.services, job })));
    const mails = await mailsTo(stack, a.email, 'reset_password');
    expect(mails).toHaveLength(1);
    expect((await reset({ token: linkToken(mails[0]), password: NEW_PASSWORD })).status).toBe(200);
  });

  it('refuses bad input with field errors', async () => {
    expectFieldErrors(await stack.http.post('/auth/forgot-password').send({ email: 'x' }), 'email');
    expectFieldErrors(await reset({ password: NEW_PASSWORD }), 'token');
    expectFieldErrors(await reset({ token: 'x'.repeat(43) }), 'password');
    expectProblem(await reset({ token: 'x'.repeat(43), password: NEW_PASSWORD }), 400, 'reset_token_invalid');
  });
});

describe('POST /users/me/password', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits, workers: false });
  });
  afterAll(() => stack.close());

  it('changes the password with the current one, keeping this session and ending the others', async () => {
    const a = await createAccount(stack);
    const other = await stack.http.post('/auth/login').send({ email: a.email, password: a.password });
    const res = await stack.http
      .post('/users/me/password')
      .set(a.auth)
      .send({ currentPassword: a.password, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(204);
    expect((await stack.http.get('/users/me').set(a.auth)).status).toBe(200);
    expectProblem(
      await stack.http.get('/users/me').set('Authorization', `Bearer ${other.body.accessToken}`),
      401,
      'token_revoked',
    );
    expectProblem(
      await stack.http.post('/auth/refresh').send({ refreshToken: other.body.refreshToken }),
      401,
      'refresh_token_invalid',
    );
    expect((await stack.http.post('/auth/refresh').send({ refreshToken: a.tokens.refreshToken })).status).toBe(200);
    expect((await stack.http.post('/auth/login').send({ email: a.email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('refuses a wrong current password and a new one against the policy', async () => {
    const a = await createAccount(stack);
    const wrong = expectProblem(
      await stack.http
        .post('/users/me/password')
        .set(a.auth)
        .send({ currentPassword: 'wrong-password', newPassword: NEW_PASSWORD }),
      400,
      'current_password_incorrect',
    );
    expect(wrong.errors).toEqual([{ field: 'currentPassword', message: 'is incorrect' }]);
    expectFieldErrors(
      await stack.http
        .post('/users/me/password')
        .set(a.auth)
        .send({ currentPassword: a.password, newPassword: 'short' }),
      'newPassword',
    );
    expectFieldErrors(
      await stack.http.post('/users/me/password').set(a.auth).send({ newPassword: NEW_PASSWORD }),
      'currentPassword',
    );
    expectProblem(
      await stack.http.post('/users/me/password').send({ currentPassword: a.password, newPassword: NEW_PASSWORD }),
      401,
      'token_missing',
    );
  });
});
