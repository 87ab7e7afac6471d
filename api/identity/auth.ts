import type { ModuleMount } from '../http/mount';
import { accepted } from '../http/routes';
import { confirmEmail } from '../../domain/identity/confirmEmail';
import { describeAccount } from '../../domain/identity/describeAccount';
import { login } from '../../domain/identity/login';
import { logout } from '../../domain/identity/logout';
import { register } from '../../domain/identity/register';
import { requestAccountLink } from '../../domain/identity/requestAccountLink';
import { resetPassword } from '../../domain/identity/resetPassword';
import { refreshSession } from '../../domain/identity/refreshSession';
import { EmailBody, EmailTokenBody, LoginBody, RefreshBody, RegisterBody, ResetPasswordBody } from './dtos';
import { accountOf, addressOf, deviceOf, SIGNIN_429, SIGNIN_THROTTLING, tokenReply } from './request';
import { MeView, StatusView, TokenPairView } from './views';

/** /auth: registration, sign-in, e-mail confirmation, password reset, token refresh, sign-out, current account. */
export function authRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Authentication');
  const limit = services.config.RATE_LIMIT_AUTH_PER_MINUTE;
  const perIp = (name: string) => ({ name: `${name}-ip`, limit });
  const perAccount = (name: string) => ({ name: `${name}-account`, limit, by: accountOf });

  r.post(
    '/auth/register',
    {
      summary: 'Create an account',
      description:
        'Always answers 202 `{ status: "confirmation_sent" }`, whether or not the e-mail already has an account, so the route cannot be used to find out who is registered. A new address gets an account, a personal organisation (its owner, free tier) and a confirm_email mail (link valid 48 hours); an address already registered gets an account_exists notice instead, and nothing changes. Sign in with POST /auth/login: it works before the address is confirmed (GET /auth/me tells `emailConfirmed`). The password policy (10 to 128 characters, not only digits, not the e-mail) answers 400 on `password`. Rate-limited per IP and per e-mail address (RATE_LIMIT_AUTH_PER_MINUTE each), which also caps the mails one address can be sent.',
      access: 'public',
      body: RegisterBody,
      response: StatusView,
      status: 202,
      rateLimits: [perIp('register'), perAccount('register')],
    },
    async ({ body, req }) => {
      await register(services, { ...body, ip: req.ip });
      return accepted({ status: 'confirmation_sent' });
    },
  );

  r.post(
    '/auth/login',
    {
      summary: 'Sign in',
      description:
        `Answers \`{ accessToken, refreshToken, expiresIn, tokenType }\`; \`expiresIn\` is the access token lifetime in seconds (ACCESS_TOKEN_TTL_SECONDS). The session opens in the organisation the user worked in last. An unknown e-mail and a wrong password both answer 401 \`invalid_credentials\`, after the same work; a disabled account answers 401 \`account_disabled\`, but only when the password is right. Unconfirmed addresses may sign in. Every attempt is in the audit log. ${SIGNIN_THROTTLING}`,
      access: 'public',
      body: LoginBody,
      response: TokenPairView,
      rateLimits: [{ name: 'login-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }],
      errors: { 401: '`invalid_credentials`, `account_disabled`', 429: SIGNIN_429 },
    },
    async ({ body, req }) => tokenReply(await login(services, { ...body, device: deviceOf(req), address: addressOf(req) })),
  );

  r.post(
    '/auth/confirm-email',
    {
      summary: 'Confirm an e-mail address',
      description: 'With the token of the confirm_email mail (single use, 48 hours). 400 `confirmation_token_invalid` for an unknown, used or expired token. Failed attempts are limited per IP (RATE_LIMIT_AUTH_PER_MINUTE); confirmations that succeed are not counted, so a classroom behind one address confirms at once.',
      access: 'public',
      body: EmailTokenBody,
      response: StatusView,
      rateLimits: [{ ...perIp('confirm'), countFailuresOnly: true }],
    },
    async ({ body, req }) => {
      await confirmEmail(services, { token: body.token, ip: req.ip });
      return { status: 'email_confirmed' };
    },
  );

  r.post(
    '/auth/resend-confirmation',
    {
      summary: 'Send the confirmation mail again',
      description:
        'Always 202 `{ status: "confirmation_sent" }`, in the same time for every address: the request is queued and a worker handles it. Only an active account whose address is not confirmed yet gets a new link (earlier links stop working); unknown and confirmed addresses get nothing, and the answer does not tell. Rate-limited per IP and per e-mail address.',
      access: 'public',
      body: EmailBody,
      response: StatusView,
      status: 202,
      rateLimits: [perIp('resend'), perAccount('resend')],
    },
    async ({ body, req }) => {
      await requestAccountLink(services, { purpose: 'confirm_email', email: body.email, ip: req.ip });
      return accepted({ status: 'confirmation_sent' });
    },
  );

  r.post(
    '/auth/forgot-password',
    {
      summary: 'Ask for a password reset link',
      description:
        'Always 202 `{ status: "reset_link_sent" }`, whether or not the address has an account, and in the same time: the request is queued and a worker handles it. An active account gets a reset_password mail whose link works once, for 1 hour (earlier links stop working). Rate-limited per IP and per e-mail address (RATE_LIMIT_AUTH_PER_MINUTE each).',
      access: 'public',
      body: EmailBody,
      response: StatusView,
      status: 202,
      rateLimits: [perIp('forgot'), perAccount('forgot')],
    },
    async ({ body, req }) => {
      await requestAccountLink(services, { purpose: 'reset_password', email: body.email, ip: req.ip });
      return accepted({ status: 'reset_link_sent' });
    },
  );

  r.post(
    '/auth/reset-password',
    {
      summary: 'Choose a new password with a reset link',
      description:
        'With the token of the reset_password mail (single use, 1 hour): sets the password and ends every session of the account on every instance (all its access and refresh tokens stop working). The link proves the mailbox, so the address counts as confirmed. 400 `reset_token_invalid`; a password refused by the policy (400 on `password`) leaves the link usable. Failed attempts are limited per IP (RATE_LIMIT_AUTH_PER_MINUTE); resets that succeed are not counted.',
      access: 'public',
      body: ResetPasswordBody,
      response: StatusView,
      rateLimits: [{ ...perIp('reset'), countFailuresOnly: true }],
    },
    async ({ body, req }) => {
      await resetPassword(services, { ...body, ip: req.ip });
      return { status: 'password_reset' };
    },
  );

  r.post(
    '/auth/refresh',
    {
      summary: 'Exchange a refresh token for a new token pair',
      description:
        'Refresh tokens are opaque, stored hashed, and single use: each call returns a new pair (rotation). Grace period: the same token presented again within 10 seconds of its exchange answers the very pair that exchange produced (a client refreshing from several requests at once keeps its session). Presenting a used token later means it leaked: the whole session is ended (401 `refresh_token_reused`), its access tokens included. The pair is for the session\'s active organisation, or, if the user was removed from it, for another organisation they belong to. 401 `refresh_token_invalid` (unknown, expired, session ended), `account_disabled`. Rate-limited per IP (RATE_LIMIT_ANON_PER_MINUTE).',
      access: 'public',
      body: RefreshBody,
      response: TokenPairView,
      rateLimits: [{ name: 'refresh-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }],
      errors: { 401: '`refresh_token_invalid`, `refresh_token_reused`, `account_disabled`' },
    },
    async ({ body, req }) => tokenReply(await refreshSession(services, services.orm.em.fork(), body.refreshToken, deviceOf(req))),
  );

  r.post(
    '/auth/logout',
    {
      summary: 'Sign out this session',
      description: "Revokes the access token (its jti, in the shared revocation list until it expires) and ends its session: the session's refresh token stops working, on every instance at once.",
      access: 'user',
      status: 204,
    },
    async ({ auth, req }) => {
      await logout(services, { claims: auth, ip: req.ip });
    },
  );

  r.get(
    '/auth/me',
    { summary: 'My account', description: 'Profile (with `emailConfirmed`), the active organisation of the token with my roles and effective permissions there, and every organisation I belong to with my roles.', access: 'user', response: MeView },
    async ({ ctx }) => MeView.from(await describeAccount(ctx)),
  );
}
