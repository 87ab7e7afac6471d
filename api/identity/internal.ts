import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { ModuleMount } from '../http/mount';
import { login } from '../../domain/identity/login';
import { oauthSync } from '../../domain/identity/oauthSync';
import { registerTrusted } from '../../domain/identity/registerTrusted';
import { refreshSession } from '../../domain/identity/refreshSession';
import type { DeviceInfo } from '../../domain/identity/sessions';
import { InternalLoginBody, InternalRefreshBody, InternalRegisterBody, OAuthSyncBody } from './dtos';
import { addressOf, noStore, SIGNIN_429, SIGNIN_THROTTLING, tokenReply } from './request';
import { SignedInAccountView, TokenPairView } from './views';

const BRIDGE = 'Machine to machine: X-Internal-Secret must equal INTERNAL_SECRET, and with none configured every call is refused (fail-closed). `ip` and `userAgent` describe the end user for the session and the audit log.';

/** The end user's device as reported by the calling service (falls back to the caller's address). */
const reportedDevice = (req: Request, body: { ip?: string; userAgent?: string }): DeviceInfo => ({ ip: body.ip ?? req.ip ?? null, userAgent: body.userAgent ?? null });

/** The end user's address a bridge reports in its body (checked by the DTO later: rate limits run before), else the caller's. */
const reportedAddress = (req: Request): string => {
  const ip: unknown = (req.body as { ip?: unknown } | undefined)?.ip;
  return typeof ip === 'string' && ip ? ipKeyGenerator(ip.slice(0, 64)) : addressOf(req);
};

/** /auth/internal: bridges for trusted services (a gateway, an OAuth front) that sign users in on their behalf. */
export function internalAuthRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Authentication: internal bridges');

  r.post(
    '/auth/internal/login',
    {
      summary: 'Sign a user in with e-mail and password',
      description: `Same rules, answers and throttling as POST /auth/login, counted by the end user's address (\`ip\` of the body; the caller's own address without it). ${SIGNIN_THROTTLING} ${BRIDGE}`,
      access: 'internal',
      body: InternalLoginBody,
      response: TokenPairView,
      rateLimits: [{ name: 'internal-login-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE, by: reportedAddress }],
      errors: { 401: '`invalid_credentials`, `account_disabled`', 429: SIGNIN_429 },
    },
    async ({ body, req }) => tokenReply(await login(services, { email: body.email, password: body.password, device: reportedDevice(req, body), address: reportedAddress(req) })),
  );

  r.post(
    '/auth/internal/register',
    {
      summary: 'Create an account and sign it in',
      description: `Unlike POST /auth/register the caller is trusted: a taken address answers 409 \`email_taken\`, and the new account is signed in at once (201 with user and tokens). \`emailConfirmed: true\` skips the confirmation mail. ${BRIDGE}`,
      access: 'internal',
      body: InternalRegisterBody,
      response: SignedInAccountView,
      status: 201,
      errors: { 409: '`email_taken`' },
    },
    async ({ body, req }) => {
      const { user, tokens } = await registerTrusted(services, { ...body, device: reportedDevice(req, body) });
      return noStore(SignedInAccountView.from(user, tokens), 201);
    },
  );

  r.post(
    '/auth/internal/refresh',
    { summary: 'Refresh a token pair', description: `Same rules and answers as POST /auth/refresh (rotation, reuse ends the session). ${BRIDGE}`, access: 'internal', body: InternalRefreshBody, response: TokenPairView, errors: { 401: '`refresh_token_invalid`, `refresh_token_reused`, `account_disabled`' } },
    async ({ body, req }) => tokenReply(await refreshSession(services, services.orm.em.fork(), body.refreshToken, reportedDevice(req, body))),
  );

  r.post(
    '/auth/internal/oauth-sync',
    {
      summary: 'Sign in a user authenticated by an external provider',
      description: `A known provider identity signs its account in. Otherwise an account with the same e-mail is linked, only if the provider verified the address (409 \`email_not_verified\`: linking an unverified address would hand the account to whoever claims it), or a password-less account is created (it can set a password through forgot-password). Answers the user, tokens and whether the account was created or linked. 401 \`account_disabled\`. ${BRIDGE}`,
      access: 'internal',
      body: OAuthSyncBody,
      response: SignedInAccountView,
      errors: { 401: '`account_disabled`', 409: '`email_not_verified`' },
    },
    async ({ body, req }) => {
      const result = await oauthSync(services, { ...body, device: reportedDevice(req, body) });
      return noStore(SignedInAccountView.from(result.user, result.tokens, { created: result.created, linked: result.linked }));
    },
  );
}
