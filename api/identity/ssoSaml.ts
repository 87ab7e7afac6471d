import express from 'express';
import type { ModuleMount } from '../http/mount';
import { IdParams } from '../http/dtos';
import { Reply } from '../http/routes';
import { memberContext } from '../../domain/identity/memberContext';
import { completeSsoSignIn } from '../../domain/identity/sso/completeSsoSignIn';
import { configureSamlProvider } from '../../domain/identity/sso/configureSamlProvider';
import { samlOptions } from '../../domain/identity/sso/samlOptions';
import { enabledSsoProvider } from '../../domain/identity/sso/ssoSignInTarget';
import * as docs from './sso.docs';
import { SamlProviderBody } from './ssoDtos';
import { claimsOfSamlResponse, samlMetadata } from './ssoSamlPassport';
import { SsoProviderView } from './ssoViews';

/**
 * SAML 2.0 single sign-on (the OpenID routes are api/identity/sso.ts; GET /auth/sso/{id}/start serves both): its
 * admins' configuration, this service's SP metadata, and the ACS the IdP posts its response to.
 */
export function ssoSamlRoutes({ routes, services }: ModuleMount): void {
  const { PUBLIC_URL, APP_URL } = services.config;
  const admin = routes('Single sign-on');
  admin.put(
    '/orgs/:id/sso/saml',
    {
      summary: "Configure the organisation's SAML identity provider",
      description: docs.CONFIGURE_SAML,
      access: 'user',
      params: IdParams,
      body: SamlProviderBody,
      response: SsoProviderView,
      alsoAnswers: { 201: 'The provider was created' },
      errors: { 403: '`permission_denied` (needs org.manage)' },
    },
    async ({ auth, params, body, req }) => {
      const ctx = await memberContext(services, params.id, auth.userId, 'org.manage');
      const input = { ...body, enforced: body.enforced ?? false };
      const { provider, created } = await configureSamlProvider(ctx, input, { ip: req.ip });
      return new Reply(created ? 201 : 200, SsoProviderView.from(provider, PUBLIC_URL));
    },
  );

  const r = routes('Authentication');
  const anonymous = [{ name: 'sso-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }];
  const front = (APP_URL || PUBLIC_URL).replace(/\/$/, '');

  r.get(
    '/auth/sso/:id/saml/metadata',
    {
      summary: 'SAML service-provider metadata',
      description: docs.SAML_METADATA,
      access: 'public',
      params: IdParams,
      rateLimits: anonymous,
      response: {
        description: 'SAML 2.0 metadata',
        contentType: 'application/samlmetadata+xml',
        schema: { type: 'string' },
      },
      errors: { 404: 'Unknown, disabled or not a SAML provider' },
    },
    async ({ params, res }) => {
      const provider = await enabledSsoProvider(services, params.id, 'saml');
      res
        .status(200)
        .type('application/samlmetadata+xml')
        .send(samlMetadata(samlOptions(services, provider)));
    },
  );

  r.post(
    '/auth/sso/:id/saml/acs',
    {
      summary: "The SAML identity provider's response",
      description: docs.SAML_ACS,
      access: 'public',
      params: IdParams,
      use: [express.urlencoded({ extended: false, limit: '256kb', parameterLimit: 10 })],
      requestBody: {
        description: 'The HTML form the IdP makes the browser post',
        content: {
          'application/x-www-form-urlencoded': {
            type: 'object',
            required: ['SAMLResponse'],
            properties: { SAMLResponse: { type: 'string', maxLength: 200000 }, RelayState: { type: 'string' } },
          },
        },
      },
      status: 302,
      rateLimits: anonymous,
      errors: {
        401: '`sso_response_invalid`, `account_disabled`',
        403: '`sso_email_unverified`, `sso_domain_unverified`',
        404: 'Unknown, disabled or not a SAML provider',
        409: '`seat_limit_reached`, `sso_account_linked`',
        413: 'Body larger than 256kb',
      },
    },
    async ({ params, req }) => {
      const provider = await enabledSsoProvider(services, params.id, 'saml');
      const claims = await claimsOfSamlResponse(req, samlOptions(services, provider));
      const code = await completeSsoSignIn(services, provider, claims, req.ip ?? null);
      const location = `${front}/sso/complete?code=${encodeURIComponent(code)}`;
      return new Reply(302, undefined, {
        Location: location,
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
      });
    },
  );
}
