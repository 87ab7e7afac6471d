import type { Request } from 'express';
import type { Strategy as PassportStrategy } from 'passport';
import { Strategy as SamlStrategy, type Profile, type VerifiedCallback } from '@node-saml/passport-saml';
import type { SamlConfig } from '@node-saml/node-saml';
import { AppError, unauthorized } from '../../lib/errors';
import { samlClaims } from '../../domain/identity/sso/samlClaims';
import type { SsoClaims } from '../../domain/identity/sso/completeSsoSignIn';
import { authenticate } from './ssoPassport';

/**
 * SAML 2.0 sign-in through @node-saml/passport-saml's Strategy, run like the OpenID one (ssoPassport.ts): the
 * redirect to the IdP (an HTTP-Redirect AuthnRequest), then the IdP's POST to our ACS, validated by node-saml
 * (signature, issuer, audience, InResponseTo, validity: samlOptions.ts). API requests keep the JWT check.
 */

const verify = (profile: Profile | null, done: VerifiedCallback) =>
  profile
    ? done(null, profile as unknown as Record<string, unknown>)
    : done(null, undefined, { message: 'no assertion' });

// One per request: passport sets its redirect/success/fail on the instance it is given.
const strategyFor = (options: SamlConfig) =>
  new SamlStrategy({ ...options, passReqToCallback: false }, verify, verify) as unknown as PassportStrategy;

/** The IdP's sign-in address carrying a new AuthnRequest (its id kept for the InResponseTo check). */
export async function redirectToIdp(req: Request, options: SamlConfig): Promise<string> {
  const outcome = await authenticate<Profile>(strategyFor(options), req);
  if (outcome.redirect) return outcome.redirect;
  throw new AppError(502, 'sso_provider_unreachable', 'The sign-in request to the identity provider could not be made');
}

/** The claims of the assertion the IdP posted; 401 `sso_response_invalid` for anything node-saml refuses. */
export async function claimsOfSamlResponse(req: Request, options: SamlConfig): Promise<SsoClaims> {
  if (typeof (req.body as { SAMLResponse?: unknown } | undefined)?.SAMLResponse !== 'string')
    throw unauthorized('sso_response_invalid', 'The identity provider posted no SAMLResponse');
  const outcome = await authenticate<Profile>(strategyFor(options), req);
  if (outcome.claims) return samlClaims(outcome.claims);
  const reason = outcome.error instanceof Error ? outcome.error.message : (outcome.failure ?? 'refused');
  throw unauthorized('sso_response_invalid', `The identity provider's answer was refused: ${reason}`);
}

/** This service's SP metadata for the organisation's IdP (entity id, ACS, NameID format, signed assertions wanted). */
export const samlMetadata = (options: SamlConfig) =>
  (strategyFor(options) as unknown as SamlStrategy).generateServiceProviderMetadata(null, null);
