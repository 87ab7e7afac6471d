import type { ModuleMount } from '../http/mount';
import { accepted } from '../http/routes';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { confirmEmail } from '../../domain/identity/confirmEmail';
import { deleteAccount } from '../../domain/identity/deleteAccount';
import { exportAccountData } from '../../domain/identity/exportAccountData';
import { describeAccount } from '../../domain/identity/describeAccount';
import { login } from '../../domain/identity/login';
import { logout } from '../../domain/identity/logout';
import { register } from '../../domain/identity/register';
import { requestAccountLink } from '../../domain/identity/requestAccountLink';
import { resetPassword } from '../../domain/identity/resetPassword';
import { refreshSession } from '../../domain/identity/refreshSession';
import { EmailBody, EmailTokenBody, LoginBody, RefreshBody, RegisterBody, ResetPasswordBody } from './dtos';
import { accountOf, addressOf, deviceOf, noStore, tokenReply } from './request';
import { SIGN_IN_RESPONSE, signInView } from './mfaViews';
import { SIGNIN_429 } from './request.docs';
import { MeView, StatusView, TokenPairView } from './views';
import { DeleteAccountBody, reauthentication } from './accountDtos';
import { ACCOUNT_EXPORT_SCHEMA, DeletedAccountView } from './accountViews';
import {
  CONFIRM_EMAIL,
  DELETE_ACCOUNT,
  EXPORT_ACCOUNT,
  FORGOT_PASSWORD,
  LOGIN,
  LOGOUT,
  ME,
  REFRESH,
  REGISTER,
  RESEND_CONFIRMATION,
  RESET_PASSWORD,
} from './auth.docs';

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
      description: REGISTER,
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
      description: LOGIN,
      access: 'public',
      body: LoginBody,
      response: SIGN_IN_RESPONSE,
      rateLimits: [{ name: 'login-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }],
      errors: {
        401: '`invalid_credentials`, `account_disabled`',
        403: '`sso_required`: the organisation of the address makes single sign-on mandatory',
        429: SIGNIN_429,
      },
    },
    async ({ body, req }) =>
      noStore(signInView(await login(services, { ...body, device: deviceOf(req), address: addressOf(req) }))),
  );

  r.post(
    '/auth/confirm-email',
    {
      summary: 'Confirm an e-mail address',
      description: CONFIRM_EMAIL,
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
      description: RESEND_CONFIRMATION,
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
      description: FORGOT_PASSWORD,
      access: 'public',
      body: EmailBody,
      response: StatusView,
      status: 202,
      rateLimits: [perIp('forgot'), perAccount('forgot')],
      errors: { 403: '`sso_required`: the organisation of the address makes single sign-on mandatory' },
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
      description: RESET_PASSWORD,
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
      description: REFRESH,
      access: 'public',
      body: RefreshBody,
      response: TokenPairView,
      rateLimits: [{ name: 'refresh-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }],
      errors: { 401: '`refresh_token_invalid`, `refresh_token_reused`, `account_disabled`' },
    },
    async ({ body, req }) =>
      tokenReply(await refreshSession(services, services.orm.em.fork(), body.refreshToken, deviceOf(req))),
  );

  r.post(
    '/auth/logout',
    {
      summary: 'Sign out this session',
      description: LOGOUT,
      access: 'user',
      status: 204,
    },
    async ({ auth, req }) => {
      await logout(services, { claims: auth, ip: req.ip });
    },
  );

  r.get('/auth/me', { summary: 'My account', description: ME, access: 'user', response: MeView }, async ({ ctx }) =>
    MeView.from(await describeAccount(ctx)),
  );

  r.get(
    '/auth/me/export',
    {
      summary: 'Export my data',
      description: EXPORT_ACCOUNT,
      access: 'user',
      response: {
        description: 'The JSON document, as an attachment',
        content: { 'application/json': ACCOUNT_EXPORT_SCHEMA },
      },
      rateLimits: [
        {
          name: 'account-export',
          limit: services.config.ACCOUNT_EXPORTS_PER_HOUR,
          windowSeconds: 3600,
          by: (req) => req.auth?.userId,
        },
      ],
    },
    async ({ auth, req, res }) => {
      const document = await exportAccountData(services, { userId: auth.userId, ip: req.ip });
      res
        .status(200)
        .type('application/json; charset=utf-8')
        .setHeader('Cache-Control', 'no-store')
        .setHeader(
          'Content-Disposition',
          `attachment; filename="my-data-${new Date().toISOString().slice(0, 10)}.json"`,
        );
      await pipeline(Readable.from(document), res);
    },
  );

  r.delete(
    '/auth/me',
    {
      summary: 'Delete my account',
      description: DELETE_ACCOUNT,
      access: 'user',
      body: DeleteAccountBody,
      response: DeletedAccountView,
      rateLimits: [{ name: 'account-delete', limit, by: (req) => req.auth?.userId, countFailuresOnly: true }],
      errors: {
        400: '`current_password_incorrect`, `mfa_not_enrolled` (a code without a TOTP factor), `validation_failed`',
        401: '`mfa_code_invalid`, `passkey_invalid`, `mfa_challenge_invalid` (no check options for this session)',
        404: '`not_found`: the account was deleted meanwhile (by a concurrent request)',
        409: '`last_owner`, `subscription_active`: the organisations are named in `errors` (`organizations.<id>`)',
        429: '`rate_limited`: too many wrong proofs',
      },
    },
    async ({ auth, body, req }) =>
      DeletedAccountView.from(
        await deleteAccount(services, {
          userId: auth.userId,
          by: { self: true, sessionId: auth.sid, proof: reauthentication(body) },
          ip: req.ip,
        }),
      ),
  );
}
