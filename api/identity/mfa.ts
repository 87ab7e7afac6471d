import type { ModuleMount } from '../http/mount';
import { confirmTotp } from '../../domain/identity/confirmTotp';
import { confirmEnrolmentWithChallenge, startEnrolmentWithChallenge } from '../../domain/identity/enrolWithChallenge';
import { enrolTotp } from '../../domain/identity/enrolTotp';
import { memberContext } from '../../domain/identity/memberContext';
import { removeTotp } from '../../domain/identity/removeTotp';
import { setMfaPolicy } from '../../domain/identity/setMfaPolicy';
import { verifyMfaChallenge } from '../../domain/identity/verifyMfaChallenge';
import { IdParams } from '../http/dtos';
import { noContent } from '../http/routes';
import { FactorCodeBody, MfaChallengeBody, MfaPolicyBody, MfaVerifyBody } from './dtos';
import { factorProof, MfaSignInBody } from './passkeyDtos';
import { deviceOf, noStore, tokenReply } from './request';
import { EnrolledSignInView, MfaPolicyView, RecoveryCodesView, TotpEnrolmentView } from './mfaViews';
import { TokenPairView } from './views';
import { CONFIRM_TOTP, ENROL_TOTP, ENROLMENT, ENROLMENT_CONFIRM, MFA_POLICY, REMOVE_TOTP, VERIFY } from './mfa.docs';

const CODE_401 = '`mfa_code_invalid`: wrong, expired or already used';
const THROTTLED = '`rate_limited`: too many wrong codes for the account (Retry-After)';

/** /auth/mfa: TOTP second factor, the second step of sign-in, enrolment-only sign-in; /orgs/{id}/mfa-policy. */
export function mfaRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Second factor');
  const perIp = (name: string) => ({ name: `${name}-ip`, limit: services.config.RATE_LIMIT_ANON_PER_MINUTE });

  r.post(
    '/auth/mfa/totp',
    {
      summary: 'Start enrolling a TOTP factor',
      description: ENROL_TOTP,
      access: 'user',
      response: TotpEnrolmentView,
      errors: { 409: '`mfa_already_enrolled`' },
    },
    async ({ auth, req }) =>
      noStore(
        TotpEnrolmentView.from(
          await enrolTotp(services, services.orm.em.fork(), {
            userId: auth.userId,
            tenantId: auth.tenantId,
            ip: req.ip,
          }),
        ),
      ),
  );

  r.post(
    '/auth/mfa/totp/confirm',
    {
      summary: 'Confirm the TOTP factor with a first code',
      description: CONFIRM_TOTP,
      access: 'user',
      body: FactorCodeBody,
      response: RecoveryCodesView,
      errors: { 400: '`mfa_not_enrolled`', 401: CODE_401, 429: THROTTLED },
    },
    async ({ auth, body, req }) =>
      noStore(
        await confirmTotp(services, services.orm.em.fork(), {
          userId: auth.userId,
          tenantId: auth.tenantId,
          code: body.code,
          keepSessionId: auth.sid,
          ip: req.ip,
        }),
      ),
  );

  r.post(
    '/auth/mfa/totp/remove',
    {
      summary: 'Remove the TOTP factor',
      description: REMOVE_TOTP,
      access: 'user',
      body: FactorCodeBody,
      status: 204,
      errors: { 400: '`mfa_not_enrolled`', 401: CODE_401, 429: THROTTLED },
    },
    async ({ auth, body, req }) => {
      await removeTotp(services, services.orm.em.fork(), {
        userId: auth.userId,
        tenantId: auth.tenantId,
        code: body.code,
        sessionId: auth.sid,
        ip: req.ip,
      });
      return noContent();
    },
  );

  r.post(
    '/auth/mfa/verify',
    {
      summary: 'Finish a sign-in with a second factor',
      description: VERIFY,
      access: 'public',
      body: MfaSignInBody,
      response: TokenPairView,
      rateLimits: [perIp('mfa-verify')],
      errors: {
        400: '`mfa_not_enrolled` (a code without a TOTP factor)',
        401: `\`mfa_challenge_invalid\`, ${CODE_401}, \`passkey_invalid\`, \`account_disabled\``,
        429: THROTTLED,
      },
    },
    async ({ body, req }) =>
      tokenReply(
        await verifyMfaChallenge(services, { challenge: body.challenge, ...factorProof(body), device: deviceOf(req) }),
      ),
  );

  r.post(
    '/auth/mfa/enrolment',
    {
      summary: 'Enrol a TOTP factor during a sign-in the organisation requires it for',
      description: ENROLMENT,
      access: 'public',
      body: MfaChallengeBody,
      response: TotpEnrolmentView,
      rateLimits: [perIp('mfa-enrolment')],
      errors: { 401: '`mfa_challenge_invalid`', 409: '`mfa_already_enrolled`' },
    },
    async ({ body, req }) =>
      noStore(
        TotpEnrolmentView.from(await startEnrolmentWithChallenge(services, { challenge: body.challenge, ip: req.ip })),
      ),
  );

  r.post(
    '/auth/mfa/enrolment/confirm',
    {
      summary: 'Confirm that enrolment and finish the sign-in',
      description: ENROLMENT_CONFIRM,
      access: 'public',
      body: MfaVerifyBody,
      response: EnrolledSignInView,
      rateLimits: [perIp('mfa-enrolment-confirm')],
      errors: {
        400: '`mfa_not_enrolled`',
        401: `\`mfa_challenge_invalid\`, ${CODE_401}, \`account_disabled\``,
        429: THROTTLED,
      },
    },
    async ({ body, req }) => {
      const { recoveryCodes, tokens } = await confirmEnrolmentWithChallenge(services, {
        challenge: body.challenge,
        code: body.code,
        device: deviceOf(req),
      });
      return noStore({ recoveryCodes, tokens: TokenPairView.from(tokens) });
    },
  );

  r.put(
    '/orgs/:id/mfa-policy',
    {
      summary: 'Require a second factor of the members',
      description: MFA_POLICY,
      access: 'user',
      params: IdParams,
      body: MfaPolicyBody,
      response: MfaPolicyView,
      errors: { 403: '`permission_denied` (needs org.manage)' },
    },
    async ({ auth, params, body, req }) =>
      setMfaPolicy(await memberContext(services, params.id, auth.userId, 'org.manage'), {
        required: body.required,
        ip: req.ip,
      }),
  );
}
