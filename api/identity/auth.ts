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
import { accountOf, addressOf, deviceOf, noStore, tokenReply } from './request';
import { SIGN_IN_RESPONSE, signInView } from './mfaViews';
import { SIGNIN_429 } from './request.docs';
import { MeView, StatusView, TokenPairView } from './views';
import {
  CONFIRM_EMAIL,
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
}
