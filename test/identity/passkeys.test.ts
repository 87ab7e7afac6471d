import { authenticator } from 'otplib';
import { AuditEntry } from '../../entities/platform/audit';
import { relyingParty } from '../../domain/identity/passkeyRules';
import { createAccount, addMember, bearer, type Account } from '../support/factories';
import { expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { SoftAuthenticator, strangerKey } from '../support/webauthn';

/**
 * WebAuthn passkeys with a software authenticator (node:crypto P-256 keys, real "none" attestations and ES256
 * assertions): registration, list, rename, second factor of a password sign-in, password-less sign-in, replays,
 * counter regressions, tampered signatures and other origins refused, other accounts' passkeys 404, removal
 * with a factor check.
 */
describe('passkeys', () => {
  let stack: TestStack;
  let rp: { id: string; origin: string };
  beforeAll(async () => {
    stack = await startStack({ workers: false, env: { ...relaxedLimits } });
    const party = relyingParty(stack.services.config);
    rp = { id: party.id, origin: party.origins[0] };
  });
  afterAll(() => stack?.close());

  const login = (a: Account) => stack.http.post('/auth/login').send({ email: a.email, password: a.password });

  /** Registers a passkey of a new authenticator for the account. */
  async function register(a: Account, name = 'Laptop') {
    const device = new SoftAuthenticator(rp.id, rp.origin);
    const options = await stack.http.post('/auth/mfa/passkeys/options').set(a.auth);
    expect(options.status).toBe(200);
    expect(options.body.rp.id).toBe(rp.id);
    const added = await stack.http
      .post('/auth/mfa/passkeys')
      .set(a.auth)
      .send({ name, credential: device.attest(options.body) });
    expect(added.status).toBe(201);
    return { device, passkey: added.body as { id: string; name: string } };
  }

  it('registers, lists and renames; a password sign-in then takes the passkey as second factor', async () => {
    const a = await createAccount(stack);
    const elsewhere = await login(a);
    const { device, passkey } = await register(a);
    // The other session ended with the factor change.
    expectProblem(await stack.http.get('/auth/me').set(bearer(elsewhere.body.accessToken)), 401, 'token_revoked');
    // The same options cannot be answered twice.
    const list = await stack.http.get('/auth/mfa/passkeys').set(a.auth);
    expect(list.body).toEqual([{ id: passkey.id, name: 'Laptop', createdAt: expect.any(String), lastUsedAt: null }]);
    const renamed = await stack.http.patch(`/auth/mfa/passkeys/${passkey.id}`).set(a.auth).send({ name: 'Work key' });
    expect(renamed.body.name).toBe('Work key');

    const first = await login(a);
    expect(first.body).toMatchObject({ mfa: 'required' });
    const options = await stack.http
      .post('/auth/mfa/passkeys/assertion-options')
      .send({ challenge: first.body.challenge });
    expect(options.status).toBe(200);
    expect(options.body.allowCredentials).toEqual([expect.objectContaining({ id: device.id })]);
    // A tampered signature is refused (and the options are used up by it).
    const tampered = device.assert(options.body, { key: strangerKey() });
    expectProblem(
      await stack.http.post('/auth/mfa/verify').send({ challenge: first.body.challenge, passkey: tampered }),
      401,
      'passkey_invalid',
    );
    const again = await stack.http
      .post('/auth/mfa/passkeys/assertion-options')
      .send({ challenge: first.body.challenge });
    const assertion = device.assert(again.body);
    const signedIn = await stack.http
      .post('/auth/mfa/verify')
      .send({ challenge: first.body.challenge, passkey: assertion });
    expect(signedIn.status).toBe(200);
    expect((await stack.http.get('/auth/me').set(bearer(signedIn.body.accessToken))).status).toBe(200);
    // Replayed: the challenge opened its session.
    expectProblem(
      await stack.http.post('/auth/mfa/verify').send({ challenge: first.body.challenge, passkey: assertion }),
      401,
      'mfa_challenge_invalid',
    );
    const listed = await stack.http.get('/auth/mfa/passkeys').set(a.auth);
    expect(listed.body[0].lastUsedAt).toEqual(expect.any(String));
    const actions = (await stack.services.orm.em.fork().find(AuditEntry, { actorId: a.user.id })).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['mfa.passkey_added', 'mfa.passkey_renamed']));
  });

  it('signs in without a password; replays, counter regressions and other origins are refused', async () => {
    const owner = await createAccount(stack);
    const a = await addMember(stack, owner);
    await stack.http.put(`/orgs/${owner.tenantId}/mfa-policy`).set(owner.auth).send({ required: true }).expect(200);
    const { device } = await register(a);
    const options = (await stack.http.post('/auth/passkeys/login/options')).body as { challenge: string };
    expect(options).toMatchObject({ userVerification: 'required' });
    const assertion = device.assert(options);
    const signedIn = await stack.http.post('/auth/passkeys/login').send({ passkey: assertion });
    expect(signedIn.body).toMatchObject({ accessToken: expect.any(String) });
    expect(signedIn.body.accessToken).toBeDefined();
    // The organisation requires a factor: the passkey is one, so the member signs in and switches freely.
    expect(
      (await stack.http.post(`/orgs/${owner.tenantId}/switch`).set(bearer(signedIn.body.accessToken))).status,
    ).toBe(200);
    expectProblem(
      await stack.http.post('/auth/passkeys/login').send({ passkey: assertion }),
      401,
      'mfa_challenge_invalid',
    );

    // A counter that does not grow (a cloned authenticator) is refused.
    device.counter -= 1;
    const cloned = device.assert((await stack.http.post('/auth/passkeys/login/options')).body);
    expectProblem(await stack.http.post('/auth/passkeys/login').send({ passkey: cloned }), 401, 'passkey_invalid');
    device.counter += 5;
    const foreign = device.assert((await stack.http.post('/auth/passkeys/login/options')).body, {
      origin: 'https://evil.example',
    });
    expectProblem(await stack.http.post('/auth/passkeys/login').send({ passkey: foreign }), 401, 'passkey_invalid');
    const otherRp = device.assert((await stack.http.post('/auth/passkeys/login/options')).body, {
      rpId: 'evil.example',
    });
    expectProblem(await stack.http.post('/auth/passkeys/login').send({ passkey: otherRp }), 401, 'passkey_invalid');
    const good = device.assert((await stack.http.post('/auth/passkeys/login/options')).body);
    expect((await stack.http.post('/auth/passkeys/login').send({ passkey: good })).status).toBe(200);
  });

  it("answers 404 for another account's passkey and removes one only with a factor check", async () => {
    const a = await createAccount(stack);
    const b = await createAccount(stack);
    const { device, passkey } = await register(a);
    expectProblem(
      await stack.http.patch(`/auth/mfa/passkeys/${passkey.id}`).set(b.auth).send({ name: 'Mine' }),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http.delete(`/auth/mfa/passkeys/${passkey.id}`).set(b.auth).send({ code: '123456' }),
      404,
      'not_found',
    );
    expect((await stack.http.get('/auth/mfa/passkeys').set(b.auth)).body).toEqual([]);

    // Without a check, or a wrong one, nothing is removed.
    expectProblem(
      await stack.http.delete(`/auth/mfa/passkeys/${passkey.id}`).set(a.auth).send({}),
      400,
      'validation_failed',
    );
    const check = await stack.http.post('/auth/mfa/passkeys/check-options').set(a.auth);
    expect(check.status).toBe(200);
    expectProblem(
      await stack.http
        .delete(`/auth/mfa/passkeys/${passkey.id}`)
        .set(a.auth)
        .send({ passkey: device.assert(check.body, { key: strangerKey() }) }),
      401,
      'passkey_invalid',
    );
    const elsewhere = await stack.http.post('/auth/passkeys/login').send({
      passkey: device.assert((await stack.http.post('/auth/passkeys/login/options')).body),
    });
    const check2 = await stack.http.post('/auth/mfa/passkeys/check-options').set(a.auth);
    const removed = await stack.http
      .delete(`/auth/mfa/passkeys/${passkey.id}`)
      .set(a.auth)
      .send({ passkey: device.assert(check2.body) });
    expect(removed.status).toBe(204);
    expectProblem(await stack.http.get('/auth/me').set(bearer(elsewhere.body.accessToken)), 401, 'token_revoked');
    expect((await stack.http.get('/auth/mfa/passkeys').set(a.auth)).body).toEqual([]);
    expect((await login(a)).body.accessToken).toBeDefined();
    expect(
      await stack.services.orm.em.fork().count(AuditEntry, { actorId: a.user.id, action: 'mfa.passkey_removed' }),
    ).toBe(1);
  });

  it('removes a passkey with a TOTP code too', async () => {
    const a = await createAccount(stack);
    const started = await stack.http.post('/auth/mfa/totp').set(a.auth);
    await stack.http
      .post('/auth/mfa/totp/confirm')
      .set(a.auth)
      .send({ code: authenticator.generate(started.body.secret) })
      .expect(200);
    const { passkey } = await register(a);
    const code = authenticator.clone({ epoch: Date.now() + 30_000 }).generate(started.body.secret);
    expect((await stack.http.delete(`/auth/mfa/passkeys/${passkey.id}`).set(a.auth).send({ code })).status).toBe(204);
  });
});
