import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { ModuleMount } from '../http/mount';
import { login } from '../../domain/identity/login';
import { oauthSync } from '../../domain/identity/oauthSync';
import { registerTrusted } from '../../domain/identity/registerTrusted';
import { refreshSession } from '../../domain/identity/refreshSession';
import type { DeviceInfo } from '../../domain/identity/sessions';
import { InternalLoginBody, InternalRefreshBody, InternalRegisterBody, OAuthSyncBody } from './dtos';
import { addressOf, noStore, tokenReply } from './request';
import { SIGNIN_429 } from './request.docs';
import { SIGN_IN_RESPONSE, signInView } from './mfaViews';
import { SignedInAccountView, TokenPairView } from './views';
import { INTERNAL_LOGIN, INTERNAL_REFRESH, INTERNAL_REGISTER, OAUTH_SYNC } from './internal.docs';

/** The end user's device as reported by the calling service (falls back to the caller's address). */
const reportedDevice = (req: Request, body: { ip?: string; userAgent?: string }): DeviceInfo => ({
  ip: body.ip ?? req.ip ?? null,
  userAgent: body.userAgent ?? null,
});

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
      description: INTERNAL_LOGIN,
      access: 'internal',
      body: InternalLoginBody,
      response: SIGN_IN_RESPONSE,
      rateLimits: [
        { name: 'internal-login-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE, by: reportedAddress },
      ],
      errors: { 401: '`invalid_credentials`, `account_disabled`', 429: SIGNIN_429 },
    },
    async ({ body, req }) =>
      noStore(
        signInView(
          await login(services, {
            email: body.email,
            password: body.password,
            device: reportedDevice(req, body),
            address: reportedAddress(req),
          }),
        ),
      ),
  );

  r.post(
    '/auth/internal/register',
    {
      summary: 'Create an account and sign it in',
      description: INTERNAL_REGISTER,
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
    {
      summary: 'Refresh a token pair',
      description: INTERNAL_REFRESH,
      access: 'internal',
      body: InternalRefreshBody,
      response: TokenPairView,
      errors: { 401: '`refresh_token_invalid`, `refresh_token_reused`, `account_disabled`' },
    },
    async ({ body, req }) =>
      tokenReply(await refreshSession(services, services.orm.em.fork(), body.refreshToken, reportedDevice(req, body))),
  );

  r.post(
    '/auth/internal/oauth-sync',
    {
      summary: 'Sign in a user authenticated by an external provider',
      description: OAUTH_SYNC,
      access: 'internal',
      body: OAuthSyncBody,
      response: SignedInAccountView,
      errors: { 401: '`account_disabled`', 409: '`email_not_verified`' },
    },
    async ({ body, req }) => {
      const result = await oauthSync(services, { ...body, device: reportedDevice(req, body) });
      return noStore(
        SignedInAccountView.from(result.user, result.tokens, { created: result.created, linked: result.linked }),
      );
    },
  );
}
