import type { Request } from 'express';
import type { Configuration } from 'openid-client';
import type { AuthenticateOptions, Strategy as OidcStrategy, VerifyFunction } from 'openid-client/passport';
import passport from 'passport';
import { AppError, unauthorized } from '../../lib/errors';
import { onFirstUse } from '../../lib/lazy';
import { openid, openidPassport } from '../../domain/identity/sso/oidcClient';
import type { SsoClaims } from '../../domain/identity/sso/completeSsoSignIn';
import { stateInvalid } from '../../domain/identity/sso/ssoAttempts';

/**
 * The sign-in and callback of single sign-on run openid-client's passport Strategy (authorization code with PKCE,
 * plus `state` and `nonce` always). Passport keeps a strategy's checks in `req.session`; this service has no
 * session middleware, so each request gets a session object of its own: filled from the attempt kept in Redis
 * before the callback, read back after the redirect (the route stores it). API requests keep the JWT check.
 */

const SESSION_KEY = 'sso';
const SCOPE = 'openid email profile';

type Checks = Record<string, string | number>;
type WithSession = Request & { session?: Record<string, unknown> };

/** The Strategy with `state` and `nonce` on every authorization request (it adds them only without PKCE support). */
const SsoStrategy = onFirstUse(() => {
  const { Strategy } = openidPassport();
  const client = openid();
  return class SsoStrategy extends Strategy {
    override authorizationRequestParams<T extends AuthenticateOptions>(req: Request, options: T): URLSearchParams {
      const params = new URLSearchParams(super.authorizationRequestParams(req, options) ?? undefined);
      params.set('state', client.randomState());
      params.set('nonce', client.randomNonce());
      return params;
    }
  };
});

export interface Outcome<C = SsoClaims> {
  redirect?: string;
  claims?: C;
  failure?: string;
  error?: unknown;
}

/** Runs passport.authenticate with a strategy (OpenID or SAML), answering what it did instead of writing a response. */
export function authenticate<C = SsoClaims>(strategy: passport.Strategy, req: Request): Promise<Outcome<C>> {
  return new Promise((resolve) => {
    let location = '';
    const res = {
      statusCode: 0,
      setHeader: (name: string, value: string) => {
        if (name.toLowerCase() === 'location') location = value;
      },
      end: () => resolve({ redirect: location }),
    };
    passport.authenticate(strategy, { session: false }, (err: unknown, user: C | false, info: unknown) => {
      if (err) resolve({ error: err });
      else if (!user) resolve({ failure: (info as { message?: string } | undefined)?.message ?? 'refused' });
      else resolve({ claims: user });
    })(req, res as never, (err?: unknown) => resolve({ error: err ?? new Error('passport went on') }));
  });
}

const verify: VerifyFunction = (tokens, done) => {
  const claims = tokens.claims();
  if (claims) done(null, claims as SsoClaims);
  else done(null, false, { message: 'The provider answered no ID token' });
};

function strategyFor(configuration: Configuration, callbackURL: string): OidcStrategy {
  // One per request: passport sets its redirect/success/fail on the instance it is given.
  return new (SsoStrategy())({ config: configuration, callbackURL, scope: SCOPE, sessionKey: SESSION_KEY }, verify);
}

/** What openid-client refused (a response that failed its checks) is the provider's answer being wrong: 401. */
function refusal(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const client = openid();
  const code = (err as { code?: unknown } | null)?.code;
  if (err instanceof client.ClientError && code !== 'OAUTH_TIMEOUT') {
    const cause = err.cause instanceof Error ? ` (${err.cause.message})` : '';
    return unauthorized('sso_response_invalid', `The identity provider's answer was refused: ${err.message}${cause}`);
  }
  if (err instanceof client.ResponseBodyError || err instanceof client.AuthorizationResponseError)
    return unauthorized('sso_response_invalid', `The identity provider refused the sign-in: ${err.error}`);
  return new AppError(502, 'sso_provider_unreachable', 'The identity provider could not be reached; try again');
}

/** The provider's authorization URL for a new attempt, and the checks the callback must meet (to keep). */
export async function redirectToProvider(
  req: Request,
  configuration: Configuration,
  callbackURL: string,
): Promise<{ location: string; checks: Checks }> {
  const session: Record<string, unknown> = {};
  (req as WithSession).session = session;
  const outcome = await authenticate(strategyFor(configuration, callbackURL), req);
  const checks = session[SESSION_KEY] as Checks | undefined;
  if (outcome.error || !outcome.redirect || !checks) throw refusal(outcome.error);
  return { location: outcome.redirect, checks };
}

/**
 * The validated ID token claims of a callback, against the attempt's checks (openid-client: state, PKCE, nonce,
 * issuer, audience, signature, expiry). 401 `sso_response_invalid` when anything fails.
 */
export async function claimsOfCallback(
  req: Request,
  configuration: Configuration,
  callbackURL: string,
  checks: Checks,
): Promise<SsoClaims> {
  (req as WithSession).session = { [SESSION_KEY]: checks };
  const outcome = await authenticate(strategyFor(configuration, callbackURL), req);
  if (outcome.claims) return outcome.claims;
  if (outcome.failure !== undefined)
    throw unauthorized('sso_response_invalid', `The identity provider's answer was refused: ${outcome.failure}`);
  if (outcome.redirect !== undefined) throw stateInvalid();
  throw refusal(outcome.error);
}
