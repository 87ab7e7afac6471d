import { authenticator } from 'otplib';
import { AuditEntry } from '../../entities/platform/audit';
import { createAccount, addMember, bearer, type Account } from '../support/factories';
import { expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

/**
 * TOTP second factor, with codes computed by otplib as an authenticator app does: enrolment, confirmation,
 * recovery codes, the sign-in challenge (replays, reused and wrong codes refused), removal with a factor check,
 * and an organisation's requirement (enrolment-only sign-in).
 */
describe('second factor (TOTP)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false, env: { ...relaxedLimits, MFA_FAILURES_PER_ACCOUNT: '8' } });
  });
  afterAll(() => stack?.close());

  /** The app's code for a secret, `steps` steps away from now (otplib, as the phone computes it). */
  const appCode = (secret: string, steps = 0) =>
    authenticator.clone({ epoch: Date.now() + steps * 30_000 }).generate(secret);
  const login = (a: Account) => stack.http.post('/auth/login').send({ email: a.email, password: a.password });
  const verify = (challenge: string, code: string) => stack.http.post('/auth/mfa/verify').send({ challenge, code });

  /** Enrols and confirms a factor; the secret and the recovery codes. */
  async function enrol(a: Account): Promise<{ secret: string; recoveryCodes: string[] }> {
    const started = await stack.http.post('/auth/mfa/totp').set(a.auth);
    expect(started.status).toBe(200);
    const uri = new URL(started.body.otpauthUri);
    expect(uri.searchParams.get('secret')).toBe(started.body.secret);
    const confirmed = await stack.http
      .post('/auth/mfa/totp/confirm')
      .set(a.auth)
      .send({ code: appCode(started.body.secret) });
    expect(confirmed.status).toBe(200);
    return { secret: started.body.secret, recoveryCodes: confirmed.body.recoveryCodes };
  }

  it('enrols, then signs in only with a challenge and a code; replays and reused codes are refused', async () => {
    const a = await createAccount(stack);
    const other = await stack.http.post('/auth/login').send({ email: a.email, password: a.password });
    expect(other.body.accessToken).toBeDefined();

    const started = await stack.http.post('/auth/mfa/totp').set(a.auth);
    // A wrong first code confirms nothing.
    expectProblem(
      await stack.http.post('/auth/mfa/totp/confirm').set(a.auth).send({ code: '000000' }),
      401,
      'mfa_code_invalid',
    );
    expect((await login(a)).body.accessToken).toBeDefined();
    const confirmed = await stack.http
      .post('/auth/mfa/totp/confirm')
      .set(a.auth)
      .send({ code: appCode(started.body.secret) });
    expect(confirmed.status).toBe(200);
    const { recoveryCodes } = confirmed.body as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    // The other session ended with the factor change; this one goes on.
    expectProblem(await stack.http.get('/auth/me').set(bearer(other.body.accessToken)), 401, 'token_revoked');
    expect((await stack.http.get('/auth/me').set(a.auth)).status).toBe(200);

    const first = await login(a);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ mfa: 'required', challenge: expect.stringMatching(/^mfa_/), expiresIn: 300 });
    expectProblem(await verify(first.body.challenge, '123456'), 401, 'mfa_code_invalid');
    // The code of the step used to confirm is spent; the next step's code (drift) is good.
    expectProblem(await verify(first.body.challenge, appCode(started.body.secret)), 401, 'mfa_code_invalid');
    const signedIn = await verify(first.body.challenge, appCode(started.body.secret, 1));
    expect(signedIn.status).toBe(200);
    expect((await stack.http.get('/auth/me').set(bearer(signedIn.body.accessToken))).status).toBe(200);
    // The challenge opened one session: replayed, it is refused.
    expectProblem(await verify(first.body.challenge, appCode(started.body.secret, 1)), 401, 'mfa_challenge_invalid');

    // A recovery code signs in once.
    const second = await login(a);
    expect((await verify(second.body.challenge, recoveryCodes[0].toUpperCase())).status).toBe(200);
    const third = await login(a);
    expectProblem(await verify(third.body.challenge, recoveryCodes[0]), 401, 'mfa_code_invalid');

    const actions = (
      await stack.services.orm.em.fork().find(AuditEntry, { actorId: a.user.id }, { orderBy: { createdAt: 'asc' } })
    ).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['mfa.totp_enabled', 'auth.login_challenged', 'mfa.recovery_code_used']),
    );
  });

  it('ends a challenge after five wrong codes and throttles wrong codes per account', async () => {
    const a = await createAccount(stack);
    const { secret } = await enrol(a);
    const { challenge } = (await login(a)).body as { challenge: string };
    for (let i = 0; i < 5; i++) expectProblem(await verify(challenge, '000000'), 401, 'mfa_code_invalid');
    expectProblem(await verify(challenge, appCode(secret, 1)), 401, 'mfa_challenge_invalid');
    // Three more wrong codes on a new challenge reach the account's limit (8): then even a right code waits.
    const next = (await login(a)).body as { challenge: string };
    for (let i = 0; i < 3; i++) expectProblem(await verify(next.challenge, '000000'), 401, 'mfa_code_invalid');
    const throttled = await verify(next.challenge, appCode(secret, 1));
    expectProblem(throttled, 429, 'rate_limited');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('removes the factor only with a factor check (a recovery code here), ending the other sessions', async () => {
    const a = await createAccount(stack);
    const { secret, recoveryCodes } = await enrol(a);
    const pending = (await login(a)).body as { challenge: string };
    const elsewhere = await verify(pending.challenge, appCode(secret, 1));
    expectProblem(
      await stack.http.post('/auth/mfa/totp/remove').set(a.auth).send({ code: '000000' }),
      401,
      'mfa_code_invalid',
    );
    expect((await stack.http.post('/auth/mfa/totp/remove').set(a.auth).send({ code: recoveryCodes[0] })).status).toBe(
      204,
    );
    expectProblem(await stack.http.get('/auth/me').set(bearer(elsewhere.body.accessToken)), 401, 'token_revoked');
    expect((await login(a)).body.accessToken).toBeDefined();
    expect(
      await stack.services.orm.em.fork().count(AuditEntry, { actorId: a.user.id, action: 'mfa.totp_removed' }),
    ).toBe(1);
  });

  it('puts members of an organisation that requires a factor in an enrolment-only state until they enrol', async () => {
    const owner = await createAccount(stack);
    const member = await addMember(stack, owner);
    expectProblem(
      await stack.http.put(`/orgs/${owner.tenantId}/mfa-policy`).set(member.auth).send({ required: true }),
      403,
      'permission_denied',
    );
    const set = await stack.http.put(`/orgs/${owner.tenantId}/mfa-policy`).set(owner.auth).send({ required: true });
    expect(set.body).toEqual({ required: true });

    const first = await login(member);
    expect(first.body).toMatchObject({ mfa: 'enrolment_required' });
    // The enrolment challenge is no sign-in challenge.
    expectProblem(await verify(first.body.challenge, '123456'), 401, 'mfa_challenge_invalid');
    const started = await stack.http.post('/auth/mfa/enrolment').send({ challenge: first.body.challenge });
    expect(started.status).toBe(200);
    const done = await stack.http
      .post('/auth/mfa/enrolment/confirm')
      .send({ challenge: first.body.challenge, code: appCode(started.body.secret) });
    expect(done.status).toBe(200);
    expect(done.body.recoveryCodes).toHaveLength(10);
    const me = await stack.http.get('/auth/me').set(bearer(done.body.tokens.accessToken));
    expect(me.status).toBe(200);
    // Used up; the next sign-in asks for the factor.
    expectProblem(
      await stack.http
        .post('/auth/mfa/enrolment/confirm')
        .send({ challenge: first.body.challenge, code: appCode(started.body.secret, 1) }),
      401,
      'mfa_challenge_invalid',
    );
    expect((await login(member)).body).toMatchObject({ mfa: 'required' });

    // Someone without a factor cannot switch into the organisation either.
    const joined = await addMember(stack, owner);
    expectProblem(
      await stack.http.post(`/orgs/${owner.tenantId}/switch`).set(joined.auth),
      403,
      'mfa_enrolment_required',
    );
  });
});
