import type { ModuleMount } from '../http/mount';
import { IdParams } from '../http/dtos';
import { created, noContent, Reply } from '../http/routes';
import { memberContext } from '../../domain/identity/memberContext';
import { claimSsoDomain } from '../../domain/identity/sso/claimSsoDomain';
import { completeSsoSignIn } from '../../domain/identity/sso/completeSsoSignIn';
import { configureSsoProvider } from '../../domain/identity/sso/configureSsoProvider';
import { describeSsoProvider } from '../../domain/identity/sso/describeSsoProvider';
import { discoverSso } from '../../domain/identity/sso/discoverSso';
import { exchangeSsoCode } from '../../domain/identity/sso/exchangeSsoCode';
import { listSsoDomains } from '../../domain/identity/sso/listSsoDomains';
import { removeSsoDomain } from '../../domain/identity/sso/removeSsoDomain';
import { removeSsoProvider } from '../../domain/identity/sso/removeSsoProvider';
import { recordSsoAttempt, takeSsoAttemptOf } from '../../domain/identity/sso/ssoAttempts';
import { enabledSsoProvider, ssoSignInTarget } from '../../domain/identity/sso/ssoSignInTarget';
import { samlOptions } from '../../domain/identity/sso/samlOptions';
import { redirectToIdp } from './ssoSamlPassport';
import { verifySsoDomain } from '../../domain/identity/sso/verifySsoDomain';
import { SIGN_IN_RESPONSE, signInView } from './mfaViews';
import { accountOf, deviceOf, noStore } from './request';
import * as docs from './sso.docs';
import {
  OrgSsoDomainParams,
  SsoCallbackQuery,
  SsoDiscoverBody,
  SsoDomainBody,
  SsoExchangeBody,
  SsoProviderBody,
} from './ssoDtos';
import { claimsOfCallback, redirectToProvider } from './ssoPassport';
import { callbackUrl, SsoDiscoveryView, SsoDomainView, SsoProviderView } from './ssoViews';

/**
 * Single sign-on (OpenID Connect) per organisation: its admins' configuration and domains under /orgs/{id}/sso
 * (org.manage in the organisation of the path), and the anonymous sign-in under /auth/sso.
 */
export function ssoRoutes({ routes, services }: ModuleMount): void {
  const admin = routes('Single sign-on');
  const { PUBLIC_URL, APP_URL, RATE_LIMIT_AUTH_PER_MINUTE } = services.config;
  const denied = { 403: '`permission_denied` (needs org.manage)' };
  const manage = (orgId: string, userId: string) => memberContext(services, orgId, userId, 'org.manage');

  admin.get(
    '/orgs/:id/sso',
    {
      summary: "The organisation's OpenID provider",
      description: docs.DESCRIBE_PROVIDER,
      access: 'user',
      params: IdParams,
      response: SsoProviderView,
      errors: { ...denied, 404: 'No provider configured (or not a member of the organisation)' },
    },
    async ({ auth, params }) =>
      SsoProviderView.from(await describeSsoProvider(await manage(params.id, auth.userId)), PUBLIC_URL),
  );

  admin.put(
    '/orgs/:id/sso',
    {
      summary: "Configure the organisation's OpenID provider",
      description: docs.CONFIGURE_PROVIDER,
      access: 'user',
      params: IdParams,
      body: SsoProviderBody,
      response: SsoProviderView,
      alsoAnswers: { 201: 'The provider was created' },
      errors: { ...denied, 422: '`sso_discovery_failed`' },
    },
    async ({ auth, params, body, req }) => {
      const ctx = await manage(params.id, auth.userId);
      const { provider, created: isNew } = await configureSsoProvider(
        ctx,
        { ...body, enforced: body.enforced ?? false },
        { ip: req.ip },
      );
      return new Reply(isNew ? 201 : 200, SsoProviderView.from(provider, PUBLIC_URL));
    },
  );

  admin.delete(
    '/orgs/:id/sso',
    {
      summary: "Remove the organisation's OpenID provider",
      description: docs.REMOVE_PROVIDER,
      access: 'user',
      params: IdParams,
      status: 204,
      errors: { ...denied, 404: 'No provider configured (or not a member of the organisation)' },
    },
    async ({ auth, params, req }) => {
      await removeSsoProvider(await manage(params.id, auth.userId), { ip: req.ip });
      return noContent();
    },
  );

  admin.get(
    '/orgs/:id/sso/domains',
    {
      summary: "The organisation's e-mail domains",
      description: docs.LIST_DOMAINS,
      access: 'user',
      params: IdParams,
      response: [SsoDomainView],
      errors: denied,
    },
    async ({ auth, params }) => (await listSsoDomains(await manage(params.id, auth.userId))).map(SsoDomainView.from),
  );

  admin.post(
    '/orgs/:id/sso/domains',
    {
      summary: 'Claim an e-mail domain',
      description: docs.CLAIM_DOMAIN,
      access: 'user',
      params: IdParams,
      body: SsoDomainBody,
      status: 201,
      response: SsoDomainView,
      errors: { ...denied, 409: '`sso_domain_claimed`, `sso_domain_taken`, `sso_domains_exhausted`' },
    },
    async ({ auth, params, body, req }) => {
      const claim = await claimSsoDomain(await manage(params.id, auth.userId), { domain: body.domain, ip: req.ip });
      return created(SsoDomainView.from(claim));
    },
  );

  admin.post(
    '/orgs/:id/sso/domains/:domainId/verify',
    {
      summary: 'Verify an e-mail domain by its DNS TXT record',
      description: docs.VERIFY_DOMAIN,
      access: 'user',
      params: OrgSsoDomainParams,
      response: SsoDomainView,
      errors: { ...denied, 404: 'No such domain', 409: '`sso_domain_taken`', 422: '`sso_domain_unproven`' },
    },
    async ({ auth, params, req }) =>
      SsoDomainView.from(
        await verifySsoDomain(await manage(params.id, auth.userId), { domainId: params.domainId, ip: req.ip }),
      ),
  );

  admin.delete(
    '/orgs/:id/sso/domains/:domainId',
    {
      summary: 'Give up an e-mail domain',
      description: docs.REMOVE_DOMAIN,
      access: 'user',
      params: OrgSsoDomainParams,
      status: 204,
      errors: { ...denied, 404: 'No such domain' },
    },
    async ({ auth, params, req }) => {
      await removeSsoDomain(await manage(params.id, auth.userId), { domainId: params.domainId, ip: req.ip });
      return noContent();
    },
  );

  const r = routes('Authentication');
  const anonymous = [{ name: 'sso-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }];
  const callback = callbackUrl(PUBLIC_URL);
  const front = (APP_URL || PUBLIC_URL).replace(/\/$/, '');
  const redirect = (location: string) =>
    new Reply(302, undefined, { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });

  r.get(
    '/auth/sso/:id/start',
    {
      summary: 'Sign in through an organisation’s identity provider',
      description: docs.START,
      access: 'public',
      params: IdParams,
      status: 302,
      rateLimits: anonymous,
      errors: { 404: 'Unknown or disabled provider', 422: '`sso_discovery_failed`', 502: '`sso_provider_unreachable`' },
    },
    async ({ params, req }) => {
      // SAML: an AuthnRequest by HTTP-Redirect (its id kept for the ACS's InResponseTo check: samlOptions.ts).
      const saml = await enabledSsoProvider(services, params.id);
      if (saml.protocol === 'saml') return redirect(await redirectToIdp(req, samlOptions(services, saml)));
      const { provider, configuration } = await ssoSignInTarget(services, params.id);
      const { location, checks } = await redirectToProvider(req, configuration, callback);
      await recordSsoAttempt(services, { providerId: provider.id, checks });
      return redirect(location);
    },
  );

  r.get(
    '/auth/sso/callback',
    {
      summary: 'The identity provider’s redirect back',
      description: docs.CALLBACK,
      access: 'public',
      query: SsoCallbackQuery,
      status: 302,
      rateLimits: anonymous,
      errors: {
        400: '`sso_state_invalid`',
        401: '`sso_response_invalid`, `account_disabled`',
        403: '`sso_email_unverified`, `sso_domain_unverified`',
        404: 'The provider was removed or disabled meanwhile',
        409: '`seat_limit_reached`, `sso_account_linked`',
        422: '`sso_discovery_failed`',
        502: '`sso_provider_unreachable`',
      },
    },
    async ({ query, req }) => {
      const attempt = await takeSsoAttemptOf(services, query.state);
      const { provider, configuration } = await ssoSignInTarget(services, attempt.providerId);
      const claims = await claimsOfCallback(req, configuration, callback, attempt.checks);
      const code = await completeSsoSignIn(services, provider, claims, req.ip ?? null);
      return redirect(`${front}/sso/complete?code=${encodeURIComponent(code)}`);
    },
  );

  r.post(
    '/auth/sso/exchange',
    {
      summary: 'Exchange the code of a single sign-on for tokens',
      description: docs.EXCHANGE,
      access: 'public',
      body: SsoExchangeBody,
      response: SIGN_IN_RESPONSE,
      rateLimits: anonymous,
      errors: { 400: '`sso_code_invalid`', 401: '`account_disabled`' },
    },
    async ({ body, req }) =>
      noStore(signInView(await exchangeSsoCode(services, { code: body.code, device: deviceOf(req) }))),
  );

  r.post(
    '/auth/sso/discover',
    {
      summary: 'Find whether an address signs in through single sign-on',
      description: docs.DISCOVER,
      access: 'public',
      body: SsoDiscoverBody,
      response: SsoDiscoveryView,
      // Per address too, so probing which domains use SSO costs a stranger more than a new IP.
      rateLimits: [...anonymous, { name: 'sso-discover-address', limit: RATE_LIMIT_AUTH_PER_MINUTE, by: accountOf }],
    },
    async ({ body }) => SsoDiscoveryView.from(await discoverSso(services, body.email), PUBLIC_URL),
  );
}
