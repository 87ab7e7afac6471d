import { inflateRawSync } from 'node:zlib';
import selfsigned from 'selfsigned';
import { bearer, createAccount, type Account } from '../support/factories';
import { startDns, type TestDns } from '../support/dnsServer';
import { expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

/** What the test uses of samlify, typed here: its own types pull the DOM library into the whole program. */
interface SamlifyIdp {
  parseLoginRequest(sp: object, binding: string, req: object): Promise<{ extract: unknown }>;
  createLoginResponse(sp: object, info: object, binding: string, user: object): Promise<{ context: string }>;
}
interface Samlify {
  setSchemaValidator(validator: { validate: (xml: string) => Promise<string> }): void;
  IdentityProvider(options: object): SamlifyIdp;
  ServiceProvider(options: object): object;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const samlify = require('samlify') as Samlify;

// samlify validates XML against the SAML schemas only with a validator plugged in (Java-based): it checks signatures
// and structure itself, which is what this peer is for.
samlify.setSchemaValidator({ validate: () => Promise.resolve('skipped') });

/**
 * SAML 2.0 single sign-on against an independent implementation (samlify as the IdP, with its own key and
 * certificate): our AuthnRequest is parsed by it, its signed response is posted to our ACS, and what node-saml
 * refuses (tampered, foreign signer, replayed, unsolicited) grants nothing.
 */
describe('single sign-on (SAML 2.0)', () => {
  let stack: TestStack;
  let dns: TestDns;
  let owner: Account;
  let providerId: string;
  let domain: string;
  let idp: SamlifyIdp;
  let rogue: SamlifyIdp;
  let sp: object;
  let ipCounter = 0;
  const ip = () => `10.38.0.${++ipCounter}`;
  const ENTITY = 'https://idp.saml.test/metadata';
  const SSO_URL = 'https://idp.saml.test/sso';

  const identity = async () => {
    const keys = await selfsigned.generate([{ name: 'commonName', value: 'idp.saml.test' }], {
      keySize: 2048,
      notAfterDate: new Date(Date.now() + 30 * 86_400_000),
    });
    return {
      keys,
      idp: samlify.IdentityProvider({
        entityID: ENTITY,
        privateKey: keys.private,
        signingCert: keys.cert,
        singleSignOnService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: SSO_URL }],
        singleLogoutService: [
          { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: 'https://idp.saml.test/slo' },
        ],
        nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
      }),
    };
  };

  beforeAll(async () => {
    dns = await startDns();
    stack = await startStack({ workers: false, env: { ...relaxedLimits, SSO_DNS_SERVERS: dns.address } });
    owner = await createAccount(stack, { tier: 'starter' });
    domain = `saml${Date.now().toString(36)}.example`;
    const made = await identity();
    idp = made.idp;
    rogue = (await identity()).idp;
    const configured = await stack.http
      .put(`/orgs/${owner.tenantId}/sso/saml`)
      .set(owner.auth)
      .send({ entityId: ENTITY, ssoUrl: SSO_URL, certificate: made.keys.cert, defaultRole: 'member', enabled: true });
    expect(configured.status).toBe(201);
    providerId = configured.body.id;
    expect(configured.body).toMatchObject({
      protocol: 'saml',
      issuer: ENTITY,
      clientId: null,
      samlSsoUrl: SSO_URL,
      samlEntityId: `${stack.url}/auth/sso/${providerId}/saml/metadata`,
      samlAcsUrl: `${stack.url}/auth/sso/${providerId}/saml/acs`,
    });
    const metadata = await stack.http.get(`/auth/sso/${providerId}/saml/metadata`);
    expect(metadata.status).toBe(200);
    expect(metadata.headers['content-type']).toMatch(/samlmetadata\+xml/);
    sp = samlify.ServiceProvider({ metadata: metadata.text });
    const claim = await stack.http.post(`/orgs/${owner.tenantId}/sso/domains`).set(owner.auth).send({ domain });
    dns.records.set(claim.body.recordName, [claim.body.recordValue]);
    await stack.http.post(`/orgs/${owner.tenantId}/sso/domains/${claim.body.id}/verify`).set(owner.auth).expect(200);
  });
  afterAll(async () => {
    await stack?.close();
    await dns?.close();
  });

  /** The browser's start: our 302 to the IdP, whose AuthnRequest samlify parses. */
  async function start() {
    const res = await stack.http.get(`/auth/sso/${providerId}/start`).set('X-Forwarded-For', ip());
    expect(res.status).toBe(302);
    const location = new URL(res.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(SSO_URL);
    const query = Object.fromEntries(location.searchParams);
    const xml = inflateRawSync(Buffer.from(query.SAMLRequest, 'base64')).toString('utf8');
    const parsed = await idp.parseLoginRequest(sp, 'redirect', { query, octetString: '' });
    return { xml, requestInfo: { extract: parsed.extract } };
  }
  const respond = async (by: SamlifyIdp, requestInfo: object, email: string) =>
    (await by.createLoginResponse(sp, requestInfo, 'post', { email })).context;
  const post = (SAMLResponse: string) =>
    stack.http
      .post(`/auth/sso/${providerId}/saml/acs`)
      .set('X-Forwarded-For', ip())
      .type('form')
      .send({ SAMLResponse, RelayState: '' });
  const exchange = (location: string) =>
    stack.http
      .post('/auth/sso/exchange')
      .set('X-Forwarded-For', ip())
      .send({ code: new URL(location).searchParams.get('code') });

  it('signs a verified-domain address in just in time through the IdP, once per request', async () => {
    const { xml, requestInfo } = await start();
    expect(xml).toContain(`AssertionConsumerServiceURL="${stack.url}/auth/sso/${providerId}/saml/acs"`);
    const email = `ada@${domain}`;
    const response = await respond(idp, requestInfo, email);
    const done = await post(response);
    expect(done.status).toBe(302);
    expect(done.headers.location).toMatch(/\/sso\/complete\?code=/);
    const tokens = await exchange(done.headers.location as string);
    expect(tokens.status).toBe(200);
    const me = await stack.http.get('/auth/me').set(bearer(tokens.body.accessToken));
    expect(me.body.user).toMatchObject({ email });
    // The same response again: its request was answered already.
    expectProblem(await post(response), 401, 'sso_response_invalid');
    // A second sign-in finds the link.
    const again = await start();
    expect((await post(await respond(idp, again.requestInfo, email))).status).toBe(302);
  });

  it('refuses a tampered, foreign-signed or unsolicited response, and an address off the verified domains', async () => {
    const first = await start();
    const genuine = Buffer.from(await respond(idp, first.requestInfo, `bob@${domain}`), 'base64').toString('utf8');
    const tampered = Buffer.from(genuine.replaceAll(`bob@${domain}`, `eve@${domain}`)).toString('base64');
    expectProblem(await post(tampered), 401, 'sso_response_invalid');
    const second = await start();
    expectProblem(await post(await respond(rogue, second.requestInfo, `bob@${domain}`)), 401, 'sso_response_invalid');
    // IdP-initiated: no request of ours to answer.
    const unsolicited = await respond(idp, { extract: { request: { id: '_never-asked' } } }, `bob@${domain}`);
    expectProblem(await post(unsolicited), 401, 'sso_response_invalid');
    const third = await start();
    expectProblem(
      await post(await respond(idp, third.requestInfo, 'bob@elsewhere.example')),
      403,
      'sso_domain_unverified',
    );
    expectProblem(await post('not base64 at all'), 401, 'sso_response_invalid');
  });

  it('refuses a certificate that is not one, and the owner role as default', async () => {
    const put = (body: object) =>
      stack.http
        .put(`/orgs/${owner.tenantId}/sso/saml`)
        .set(owner.auth)
        .send({ entityId: ENTITY, ssoUrl: SSO_URL, defaultRole: 'member', enabled: true, ...body });
    expectProblem(await put({ certificate: 'hello' }), 400, 'validation_failed');
    expectProblem(await put({ certificate: 'x', ssoUrl: 'ftp://idp' }), 400, 'validation_failed');
    expectProblem(await stack.http.get(`/auth/sso/${owner.tenantId}/saml/metadata`), 404, 'not_found');
  });
});
