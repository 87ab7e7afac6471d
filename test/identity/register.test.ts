import { User } from '../../entities/identity/user';
import { REGISTER_TIME_BUDGET_MS } from '../../domain/identity/register';
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

const PASSWORD = 'a-long-enough-password';

describe('POST /auth/register, /auth/confirm-email, /auth/resend-confirmation', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits });
  });
  afterAll(() => stack.close());

  const register = (body: object) => stack.http.post('/auth/register').send(body);

  it('creates an account that can sign in before confirming, and confirms it with the mailed link', async () => {
    const email = uniqueEmail('new');
    const res = await register({ email: email.toUpperCase(), password: PASSWORD, displayName: 'Ada' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'confirmation_sent' });

    const login = await stack.http.post('/auth/login').send({ email, password: PASSWORD });
    expect(login.status).toBe(200);
    const me = await stack.http.get('/auth/me').set('Authorization', `Bearer ${login.body.accessToken}`);
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email, displayName: 'Ada', emailConfirmed: false });
    expect(me.body.organization.name).toBe("Ada's organisation");
    expect(me.body.roles.map((r: { key: string }) => r.key)).toEqual(['owner']);

    const mail = await deliveredMail(stack, email, 'confirm_email');
    expect(mail.status).toBe('kept');
    const confirmed = await stack.http.post('/auth/confirm-email').send({ token: linkToken(mail) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ status: 'email_confirmed' });
    const after = await stack.http.get('/auth/me').set('Authorization', `Bearer ${login.body.accessToken}`);
    expect(after.body.user.emailConfirmed).toBe(true);

    // Single use.
    expectProblem(
      await stack.http.post('/auth/confirm-email').send({ token: linkToken(mail) }),
      400,
      'confirmation_token_invalid',
    );
  });

  it('answers identically for a taken address, which gets an account_exists notice instead', async () => {
    const existing = await createAccount(stack);
    const fresh = uniqueEmail('fresh');
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await register({ email, password: PASSWORD });
      return Object.assign(res, { ms: performance.now() - started });
    };
    const [taken, free] = await Promise.all([timed(existing.email), timed(fresh)]);
    // Both wait out the same time budget, whichever work they did (the medians: bench/oracles).
    for (const res of [taken, free]) expect(res.ms).toBeGreaterThanOrEqual(REGISTER_TIME_BUDGET_MS - 5);
    expect(taken.status).toBe(free.status);
    expect(taken.body).toEqual(free.body);
    expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(free.headers).sort());

    const notice = await deliveredMail(stack, existing.email, 'account_exists');
    expect(notice.text).toContain('already has one');
    expect(notice.text).not.toMatch(/token=/);
    expect(await mailsTo(stack, existing.email, 'confirm_email')).toHaveLength(0);
    // The existing account is untouched: its password still works.
    expect(
      (await stack.http.post('/auth/login').send({ email: existing.email, password: existing.password })).status,
    ).toBe(200);
    expect(await stack.services.orm.em.fork().count(User, { email: existing.email })).toBe(1);
  });

  it('refuses bad input with field errors', async () => {
    expectFieldErrors(await register({ email: 'not-an-email', password: PASSWORD }), 'email');
    expectFieldErrors(await register({ email: uniqueEmail() }), 'password');
    expectFieldErrors(await register({ email: uniqueEmail(), password: 'short' }), 'password');
    expectFieldErrors(await register({ email: uniqueEmail(), password: '12345678901234' }), 'password');
    expectFieldErrors(await register({ email: uniqueEmail(), password: PASSWORD, admin: true }), 'admin');
    expectProblem(await stack.http.post('/auth/register'), 400, 'validation_failed');
    expectFieldErrors(await stack.http.post('/auth/confirm-email').send({ token: 'x' }), 'token');
    expectFieldErrors(await stack.http.post('/auth/resend-confirmation').send({}), 'email');
  });

  it('resends a confirmation only to unconfirmed accounts, answering the same for everyone', async () => {
    const email = uniqueEmail('resend');
    await register({ email, password: PASSWORD });
    const first = await deliveredMail(stack, email, 'confirm_email');
    const confirmed = await createAccount(stack);
    const answers = await Promise.all(
      [email, confirmed.email, uniqueEmail('nobody')].map((e) =>
        stack.http.post('/auth/resend-confirmation').send({ email: e }),
      ),
    );
    for (const res of answers) {
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ status: 'confirmation_sent' });
    }
    const second = await deliveredMail(stack, email, 'confirm_email', 2);
    expect(second.id).not.toBe(first.id);
    await accountLinksHandled(stack);
    expect(await mailsTo(stack, confirmed.email, 'confirm_email')).toHaveLength(0);
    // Only the newest link works.
    expectProblem(
      await stack.http.post('/auth/confirm-email').send({ token: linkToken(first) }),
      400,
      'confirmation_token_invalid',
    );
    expect((await stack.http.post('/auth/confirm-email').send({ token: linkToken(second) })).status).toBe(200);
  });

  it('mails one confirmation per request even when its job runs again (a stall after its commit), and that link works', async () => {
    const email = uniqueEmail('replayed');
    await register({ email, password: PASSWORD });
    const first = await deliveredMail(stack, email, 'confirm_email');
    expect((await stack.http.post('/auth/resend-confirmation').send({ email })).status).toBe(202);
    const resent = await deliveredMail(stack, email, 'confirm_email', 2);
    await accountLinksHandled(stack);
    const job = (await stack.services.queues.get(accountLinkQueue).getJobs(['completed'])).find(
      (j) => j.data.email === email.toLowerCase(),
    )!;
    await accountLinksProcessor.perform(job.data, { services: stack.services, job });
    expect((await mailsTo(stack, email, 'confirm_email')).map((m) => m.id)).toEqual([first.id, resent.id]);
    expect((await stack.http.post('/auth/confirm-email').send({ token: linkToken(resent) })).status).toBe(200);
  });
});
