import { discoverIssuer } from '../../domain/identity/sso/oidcClient';
import { SsoLink } from '../../entities/identity/sso';
import { Membership } from '../../entities/identity/organization';
import { User } from '../../entities/identity/user';
import { AuditEntry } from '../../entities/platform/audit';
import { addMember, bearer, createAccount, type Account } from '../support/factories';
import { startDns, type TestDns } from '../support/dnsServer';
import { expectProblem, relaxedLimits } from '../support/identity';
import { followToCallback, startIdp, startToCallback, type TestIdp } from '../support/oidcProvider';
import { startStack, type TestStack } from '../support/stack';

/**
 * OpenID Connect single sign-on against a real provider (oidc-provider on a loopback port) and a local DNS server:
 * an admin configures the provider and verifies a domain; a browser's redirects go through the provider's
 * authorization (PKCE, state, nonce) to our callback, whose one-time code becomes the token pair; every refusal is
 * a 4xx that grants nothing.
 */
describe('single sign-on (OpenID Connect)', () => {
  let stack: TestStack;
  let idp: TestIdp;
  let rogue: TestIdp;
  let dns: TestDns;
  let owner: Account;
  let other: Account;
  let providerId: string;
  let domain: string;
  let ipCounter = 0;
  const ip = () => `10.37.0.${++ipCounter}`;
  const CLIENT = { client_id: 'platform', client_secret: 'platform-secret-0123456789' };
  const OTHER_CLIENT = { client_id: 'another-app', client_secret: 'another-secret-0123456789' };

  const account = (sub: string, email: string, verified = true) =>
    idp.accounts.set(sub, { sub, email, email_verified: verified, name: `Person ${sub}` });

  /** Start, the provider's login of `sub`, and our callback: its answer. */
  async function signIn(sub: string, options: { amr?: string[] } = {}) {
    idp.nextLogin = { sub, amr: options.amr };
    const callback = await startToCallback(stack, `/auth/sso/${providerId}/start`, ip());
    return stack.http.get(callback).set('X-Forwarded-For', ip());
  }

  const codeOf = (location: string) => new URL(location).searchParams.get('code') ?? '';
  const exchange = (code: string) => stack.http.post('/auth/sso/exchange').set('X-Forwarded-For', ip()).send({ code });

  beforeAll(async () => {
    dns = await startDns();
    stack = await startStack({
      workers: false,
      env: {
        ...relaxedLimits,
        SSO_ALLOW_INSECURE_ISSUERS: 'true',
        SSO_ALLOWED_HOSTS: '127.0.0.1',
        SSO_DNS_SERVERS: dns.address,
      },
    });
    const redirect_uris = [`${stack.url}/auth/sso/callback`];
    idp = await startIdp({
      clients: [
        { ...CLIENT, redirect_uris },
        { ...OTHER_CLIENT, redirect_uris },
      ],
    });
    rogue = await startIdp({ clients: [{ ...CLIENT, redirect_uris }] });
    [owner, other] = [await createAccount(stack, { tier: 'starter' }), await createAccount(stack)];
    domain = `corp${Date.now().toString(36)}.example`;
  });
  afterAll(async () => {
    await stack?.close();
    await idp?.close();
    await rogue?.close();
    await dns?.close();
  });

  it('reaches a provider only at public addresses unless its host is exempt (SSO_ALLOWED_HOSTS)', async () => {
    const strict = { ...stack.services, config: { ...stack.services.config, SSO_ALLOWED_HOSTS: '' } };
    const refused = await discoverIssuer(strict, idp.issuer, CLIENT.client_id, CLIENT.client_secret).catch(
      (err: Error & { code?: string }) => err,
    );
    expect(refused).toMatchObject({ code: 'sso_discovery_failed' });
    expect((refused as Error).message).toMatch(/127\.0\.0\.1.*refused/);
    const discovered = await discoverIssuer(stack.services, idp.issuer, CLIENT.client_id, CLIENT.client_secret);
    expect(discovered.serverMetadata().issuer).toBe(idp.issuer);
  });

  it('lets an admin configure the provider (secret write-only, discovered first, audited); others are refused', async () => {
    const base = `/orgs/${owner.tenantId}/sso`;
    expectProblem(await stack.http.get(base).set(owner.auth), 404, 'not_found');
    const body = { issuer: idp.issuer, clientId: CLIENT.client_id, defaultRole: 'member', enabled: true };

    const noSecret = await stack.http.put(base).set(owner.auth).send(body);
    expectProblem(noSecret, 400, 'validation_failed');
    const unreachable = await stack.http
      .put(base)
      .set(owner.auth)
      .send({ ...body, clientSecret: CLIENT.client_secret, issuer: 'http://127.0.0.1:1/' });
    expectProblem(unreachable, 422, 'sso_discovery_failed');
    const ownerRole = await stack.http
      .put(base)
      .set(owner.auth)
      .send({ ...body, clientSecret: CLIENT.client_secret, defaultRole: 'owner' });
    expectProblem(ownerRole, 400, 'validation_failed');
    const noRole = await stack.http
      .put(base)
      .set(owner.auth)
      .send({ ...body, clientSecret: CLIENT.client_secret, defaultRole: 'no-such-role' });
    expectProblem(noRole, 400, 'validation_failed');

    const made = await stack.http
      .put(base)
      .set(owner.auth)
      .send({ ...body, clientSecret: CLIENT.client_secret });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      issuer: `${idp.issuer}/`,
      clientId: 'platform',
      clientSecretSet: true,
      defaultRole: 'member',
      enabled: true,
      enforced: false,
      redirectUri: `${stack.url}/auth/sso/callback`,
    });
    expect(JSON.stringify(made.body)).not.toContain(CLIENT.client_secret);
    providerId = made.body.id;
    expect(made.body.startUrl).toBe(`${stack.url}/auth/sso/${providerId}/start`);

    // Without a secret the stored one is kept (discovery still runs with it).
    const updated = await stack.http
      .put(base)
      .set(owner.auth)
      .send({ ...body, defaultRole: 'admin' });
    expect(updated.status).toBe(200);
    expect(updated.body.defaultRole).toBe('admin');
    await stack.http.put(base).set(owner.auth).send(body);
    const shown = await stack.http.get(base).set(owner.auth);
    expect(shown.body).toMatchObject({ id: providerId, defaultRole: 'member' });
    expect(JSON.stringify(shown.body)).not.toContain(CLIENT.client_secret);

    const member = await addMember(stack, owner, 'member');
    expectProblem(await stack.http.put(base).set(member.auth).send(body), 403, 'permission_denied');
    expectProblem(await stack.http.get(base).set(other.auth), 404, 'not_found');

    const audit = await stack.services.orm.em
      .fork()
      .find(AuditEntry, { tenantId: owner.tenantId, action: { $like: 'sso.%' } }, { filters: false });
    const actions = audit.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['sso.provider_created', 'sso.provider_updated']));
    expect(JSON.stringify(audit.map((e) => e.data))).not.toContain(CLIENT.client_secret);
  });

  it('verifies a domain by its DNS TXT record, for one organisation only', async () => {
    const base = `/orgs/${owner.tenantId}/sso/domains`;
    expectProblem(
      await stack.http.post(base).set(owner.auth).send({ domain: 'not a domain' }),
      400,
      'validation_failed',
    );
    const claim = await stack.http.post(base).set(owner.auth).send({ domain: domain.toUpperCase() });
    expect(claim.status).toBe(201);
    expect(claim.body).toMatchObject({ domain, status: 'pending', recordName: `_platform-sso.${domain}` });
    expectProblem(await stack.http.post(base).set(owner.auth).send({ domain }), 409, 'sso_domain_claimed');

    const verify = `${base}/${claim.body.id}/verify`;
    expectProblem(await stack.http.post(verify).set(owner.auth), 422, 'sso_domain_unproven');
    dns.records.set(claim.body.recordName, ['v=spf1 -all', 'platform-sso-verification=wrong']);
    expectProblem(await stack.http.post(verify).set(owner.auth), 422, 'sso_domain_unproven');

    // Another organisation claims it too and publishes its own proof first: the first to verify holds it.
    const rival = await stack.http.post(`/orgs/${other.tenantId}/sso/domains`).set(other.auth).send({ domain });
    expect(rival.status).toBe(201);
    dns.records.set(claim.body.recordName, [claim.body.recordValue, rival.body.recordValue]);
    const verified = await stack.http.post(verify).set(owner.auth);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ status: 'verified', verifiedAt: expect.any(String) });
    expectProblem(
      await stack.http.post(`/orgs/${other.tenantId}/sso/domains/${rival.body.id}/verify`).set(other.auth),
      409,
      'sso_domain_taken',
    );
    // Another organisation's domain id is a 404 in one's own organisation; the list shows both states.
    expectProblem(
      await stack.http.post(`/orgs/${other.tenantId}/sso/domains/${claim.body.id}/verify`).set(other.auth),
      404,
      'not_found',
    );
    const listed = await stack.http.get(base).set(owner.auth);
    expect(listed.body).toEqual([expect.objectContaining({ domain, status: 'verified' })]);
    const audit = await stack.services.orm.em
      .fork()
      .find(AuditEntry, { tenantId: owner.tenantId, action: { $like: 'sso.domain_%' } }, { filters: false });
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(['sso.domain_claimed', 'sso.domain_verified']));
  });

  it('provisions a member just in time on first sign-in, and signs the linked member in after', async () => {
    const email = `ann@${domain}`;
    account('ann-sub', email);
    const start = await stack.http.get(`/auth/sso/${providerId}/start`).set('X-Forwarded-For', ip());
    expect(start.status).toBe(302);
    expect(start.headers['cache-control']).toBe('no-store');
    const authorize = new URL(start.headers.location as string);
    expect(authorize.origin).toBe(idp.issuer);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: 'platform',
      response_type: 'code',
      redirect_uri: `${stack.url}/auth/sso/callback`,
      code_challenge_method: 'S256',
      scope: 'openid email profile',
      state: expect.stringMatching(/.{20,}/),
      nonce: expect.stringMatching(/.{20,}/),
      code_challenge: expect.any(String),
    });
    idp.nextLogin = { sub: 'ann-sub' };
    const callback = await followToCallback(stack, authorize.href);
    const done = await stack.http.get(callback).set('X-Forwarded-For', ip());
    expect(done.status).toBe(302);
    expect(done.headers.location).toMatch(new RegExp(`^${stack.url}/sso/complete\\?code=[A-Za-z0-9_-]{40,}$`));
    expect(done.headers.location).not.toMatch(/token/i);

    // Replaying the callback (same state and code) grants nothing.
    expectProblem(await stack.http.get(callback).set('X-Forwarded-For', ip()), 400, 'sso_state_invalid');

    const tokens = await exchange(codeOf(done.headers.location as string));
    expect(tokens.status).toBe(200);
    expect(tokens.headers['cache-control']).toBe('no-store');
    expect(tokens.body).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String) });
    expectProblem(await exchange(codeOf(done.headers.location as string)), 400, 'sso_code_invalid');

    const me = await stack.http.get('/auth/me').set(bearer(tokens.body.accessToken));
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email, emailConfirmed: true });
    expect(me.body.organization.id).toBe(owner.tenantId);
    const em = stack.services.orm.em.fork();
    const user = await em.findOneOrFail(User, { email });
    const membership = await em.findOneOrFail(
      Membership,
      { tenantId: owner.tenantId, user: user.id },
      { filters: false, populate: ['roles'] },
    );
    expect(membership.roles.getItems().map((r) => r.key)).toEqual(['member']);
    expect(await em.count(SsoLink, { tenantId: owner.tenantId, userId: user.id }, { filters: false })).toBe(1);

    // The second sign-in is the linked member's: no new account, no new membership.
    const again = await signIn('ann-sub');
    expect(again.status).toBe(302);
    expect((await exchange(codeOf(again.headers.location as string))).status).toBe(200);
    expect(await em.fork().count(User, { email })).toBe(1);
    const entries = await em
      .fork()
      .find(AuditEntry, { tenantId: owner.tenantId, targetId: user.id }, { filters: false, orderBy: { id: 'asc' } });
    expect(entries.map((e) => e.action)).toEqual(['sso.member_provisioned', 'auth.login', 'auth.login']);
  });

  it('links an existing account of a verified domain, never one of an unverified domain or unverified address', async () => {
    const existing = await createAccount(stack, { email: `bob@${domain}` });
    account('bob-sub', existing.email);
    const linked = await signIn('bob-sub');
    expect(linked.status).toBe(302);
    const tokens = await exchange(codeOf(linked.headers.location as string));
    const me = await stack.http.get('/auth/me').set(bearer(tokens.body.accessToken));
    expect(me.body.user.id).toBe(existing.user.id);

    account('eve-sub', `eve@unclaimed-${domain}`);
    expectProblem(await signIn('eve-sub'), 403, 'sso_domain_unverified');
    account('mallory-sub', `mallory@${domain}`, false);
    expectProblem(await signIn('mallory-sub'), 403, 'sso_email_unverified');
    const em = stack.services.orm.em.fork();
    expect(await em.count(User, { email: { $in: [`eve@unclaimed-${domain}`, `mallory@${domain}`] } })).toBe(0);
  });

  it('refuses an unknown state, a code of another client and a code of another issuer, granting nothing', async () => {
    expectProblem(
      await stack.http.get('/auth/sso/callback?code=abc&state=unknown-state-value').set('X-Forwarded-For', ip()),
      400,
      'sso_state_invalid',
    );
    expectProblem(await stack.http.get('/auth/sso/callback').set('X-Forwarded-For', ip()), 400, 'sso_state_invalid');

    // A code the provider issued to another client (its audience), delivered with a live attempt's state.
    account('carol-sub', `carol@${domain}`);
    idp.nextLogin = { sub: 'carol-sub' };
    const start = await stack.http.get(`/auth/sso/${providerId}/start`).set('X-Forwarded-For', ip());
    const ours = new URL(start.headers.location as string);
    const theirs = new URL(ours.href);
    theirs.searchParams.set('client_id', OTHER_CLIENT.client_id);
    const foreign = new URL(await followToCallback(stack, theirs.href), stack.url);
    expect(foreign.searchParams.get('state')).toBe(ours.searchParams.get('state'));
    const wrongAudience = expectProblem(
      await stack.http.get(foreign.pathname + foreign.search).set('X-Forwarded-For', ip()),
      401,
      'sso_response_invalid',
    );
    expect(wrongAudience.detail).toMatch(/invalid_grant/);

    // The same authorization request answered by another provider (its iss, its code).
    rogue.accounts.set('carol-sub', { sub: 'carol-sub', email: `carol@${domain}`, email_verified: true });
    rogue.nextLogin = { sub: 'carol-sub' };
    const start2 = await stack.http.get(`/auth/sso/${providerId}/start`).set('X-Forwarded-For', ip());
    const atRogue = new URL(start2.headers.location as string);
    const rogueUrl = new URL(rogue.issuer + atRogue.pathname + atRogue.search);
    const forged = new URL(await followToCallback(stack, rogueUrl.href), stack.url);
    expect(forged.searchParams.get('iss')).toBe(rogue.issuer);
    const wrongIssuer = expectProblem(
      await stack.http.get(forged.pathname + forged.search).set('X-Forwarded-For', ip()),
      401,
      'sso_response_invalid',
    );
    expect(wrongIssuer.detail).toMatch(/iss/);
    expect(await stack.services.orm.em.fork().count(User, { email: `carol@${domain}` })).toBe(0);
  });

  it('refuses a first sign-in past the seats of the plan', async () => {
    // The starter tier has 10 seats: members fill the rest.
    const em = stack.services.orm.em.fork();
    const seats = (await stack.http.get('/api/entitlements/me').set(owner.auth)).body.limits.seats as number;
    expect(seats).toBe(10);
    while ((await em.fork().count(Membership, { tenantId: owner.tenantId }, { filters: false })) < seats)
      await addMember(stack, owner, 'member');
    account('dave-sub', `dave@${domain}`);
    expectProblem(await signIn('dave-sub'), 409, 'seat_limit_reached');
    expect(await em.count(SsoLink, { tenantId: owner.tenantId, subject: 'dave-sub' }, { filters: false })).toBe(0);
  });

  it('answers home-realm discovery by domain only, naming no organisation', async () => {
    const discover = (email: string) =>
      stack.http.post('/auth/sso/discover').set('X-Forwarded-For', ip()).send({ email });
    const hit = await discover(`nobody-yet@${domain.toUpperCase()}`);
    expect(hit.status).toBe(200);
    expect(hit.body).toEqual({ sso: true, required: false, startUrl: `${stack.url}/auth/sso/${providerId}/start` });
    expect(JSON.stringify(hit.body)).not.toContain(owner.tenantId);
    expect((await discover('someone@elsewhere.example')).body).toEqual({ sso: false, required: false, startUrl: null });
    expectProblem(await discover('not-an-address'), 400, 'validation_failed');
  });

  it('takes the provider’s second factor (amr) for an organisation requiring one, else asks its own', async () => {
    expect(
      (await stack.http.put(`/orgs/${owner.tenantId}/mfa-policy`).set(owner.auth).send({ required: true })).status,
    ).toBe(200);
    const withoutFactor = await signIn('ann-sub');
    const challenged = await exchange(codeOf(withoutFactor.headers.location as string));
    expect(challenged.status).toBe(200);
    expect(challenged.body).toMatchObject({ mfa: 'enrolment_required', challenge: expect.any(String) });
    expect(challenged.body.accessToken).toBeUndefined();

    const withFactor = await signIn('ann-sub', { amr: ['pwd', 'otp'] });
    const tokens = await exchange(codeOf(withFactor.headers.location as string));
    expect(tokens.body).toMatchObject({ accessToken: expect.any(String) });
    await stack.http.put(`/orgs/${owner.tenantId}/mfa-policy`).set(owner.auth).send({ required: false });
  });

  it('makes single sign-on mandatory for the verified domain: no password sign-in or reset there', async () => {
    const base = `/orgs/${owner.tenantId}/sso`;
    const body = { issuer: idp.issuer, clientId: CLIENT.client_id, defaultRole: 'member', enabled: true };
    expect(
      (
        await stack.http
          .put(base)
          .set(owner.auth)
          .send({ ...body, enforced: true })
      ).body.enforced,
    ).toBe(true);
    const bob = { email: `bob@${domain}`, password: 'correct-horse-battery-staple' };
    expectProblem(await stack.http.post('/auth/login').set('X-Forwarded-For', ip()).send(bob), 403, 'sso_required');
    expectProblem(
      await stack.http.post('/auth/forgot-password').set('X-Forwarded-For', ip()).send({ email: bob.email }),
      403,
      'sso_required',
    );
    const discovered = await stack.http
      .post('/auth/sso/discover')
      .set('X-Forwarded-For', ip())
      .send({ email: bob.email });
    expect(discovered.body).toMatchObject({ sso: true, required: true });
    // Other domains sign in with a password as before; SSO itself still works.
    expect((await stack.http.post('/auth/login').send({ email: owner.email, password: owner.password })).status).toBe(
      200,
    );
    expect((await signIn('bob-sub')).status).toBe(302);
    await stack.http
      .put(base)
      .set(owner.auth)
      .send({ ...body, enforced: false });
    expect((await stack.http.post('/auth/login').set('X-Forwarded-For', ip()).send(bob)).status).toBe(200);
  });

  it('closes sign-in when the provider is disabled, and forgets the links when it is removed', async () => {
    const base = `/orgs/${owner.tenantId}/sso`;
    const body = { issuer: idp.issuer, clientId: CLIENT.client_id, defaultRole: 'member', enabled: false };
    expect((await stack.http.put(base).set(owner.auth).send(body)).status).toBe(200);
    expectProblem(await stack.http.get(`/auth/sso/${providerId}/start`).set('X-Forwarded-For', ip()), 404, 'not_found');
    const discovered = await stack.http
      .post('/auth/sso/discover')
      .set('X-Forwarded-For', ip())
      .send({ email: `x@${domain}` });
    expect(discovered.body).toEqual({ sso: false, required: false, startUrl: null });
    expectProblem(await stack.http.delete(base).set(other.auth), 404, 'not_found');
    expect((await stack.http.delete(base).set(owner.auth)).status).toBe(204);
    expectProblem(await stack.http.get(base).set(owner.auth), 404, 'not_found');
    const em = stack.services.orm.em.fork();
    expect(await em.count(SsoLink, { tenantId: owner.tenantId }, { filters: false })).toBe(0);
    expect(await em.count(User, { email: `ann@${domain}` })).toBe(1);
  });
});
