import type { ModuleMount } from '../http/mount';
import { listPasskeys } from '../../domain/identity/listPasskeys';
import { passkeyLogin, passkeyLoginOptions } from '../../domain/identity/passkeySignIn';
import { addPasskey, startPasskeyRegistration } from '../../domain/identity/registerPasskey';
import { passkeyCheckOptions, removePasskey } from '../../domain/identity/removePasskey';
import { renamePasskey } from '../../domain/identity/renamePasskey';
import { signInPasskeyOptions } from '../../domain/identity/verifyMfaChallenge';
import { IdParams } from '../http/dtos';
import { created, noContent } from '../http/routes';
import { MfaChallengeBody } from './dtos';
import {
  AddPasskeyBody,
  FactorProofBody,
  PasskeyLoginBody,
  RenamePasskeyBody,
  authenticationResponse,
  factorProof,
  registrationResponse,
} from './passkeyDtos';
import { CREATION_OPTIONS, PasskeyView, REQUEST_OPTIONS } from './passkeyViews';
import { deviceOf, noStore, tokenReply } from './request';
import { TokenPairView } from './views';
import {
  ADD_PASSKEY,
  CHECK_OPTIONS,
  LIST_PASSKEYS,
  LOGIN,
  LOGIN_OPTIONS,
  REGISTRATION_OPTIONS,
  REMOVE_PASSKEY,
  RENAME_PASSKEY,
  SIGN_IN_OPTIONS,
} from './passkeys.docs';

const ASSERTION_401 = '`passkey_invalid` (wrong signature, origin, relying party or counter), `mfa_challenge_invalid`';
const THROTTLED = '`rate_limited`: too many wrong factors for the account (Retry-After)';

/**
 * WebAuthn passkeys: /auth/mfa/passkeys (registration, list, rename, removal, the second factor of a password
 * sign-in) and /auth/passkeys/login (password-less sign-in).
 */
export function passkeyRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Second factor');
  const perIp = (name: string) => ({ name: `${name}-ip`, limit: services.config.RATE_LIMIT_ANON_PER_MINUTE });

  r.post(
    '/auth/mfa/passkeys/options',
    {
      summary: 'Start adding a passkey',
      description: REGISTRATION_OPTIONS,
      access: 'user',
      response: CREATION_OPTIONS,
    },
    async ({ auth }) =>
      noStore(await startPasskeyRegistration(services, services.orm.em.fork(), { userId: auth.userId })),
  );

  r.post(
    '/auth/mfa/passkeys',
    {
      summary: 'Add a passkey',
      description: ADD_PASSKEY,
      access: 'user',
      body: AddPasskeyBody,
      response: PasskeyView,
      status: 201,
      errors: { 400: '`passkey_challenge_invalid`, `passkey_invalid`', 409: '`passkey_exists`, `passkey_limit`' },
    },
    async ({ auth, body, req }) => {
      const passkey = await addPasskey(services, services.orm.em.fork(), {
        userId: auth.userId,
        tenantId: auth.tenantId,
        name: body.name,
        response: registrationResponse(body.credential),
        keepSessionId: auth.sid,
        ip: req.ip,
      });
      return created(PasskeyView.from(passkey), `/auth/mfa/passkeys/${passkey.id}`);
    },
  );

  r.get(
    '/auth/mfa/passkeys',
    { summary: 'My passkeys', description: LIST_PASSKEYS, access: 'user', response: [PasskeyView] },
    async ({ auth }) => (await listPasskeys(services.orm.em.fork(), auth.userId)).map(PasskeyView.from),
  );

  r.patch(
    '/auth/mfa/passkeys/:id',
    {
      summary: 'Rename a passkey',
      description: RENAME_PASSKEY,
      access: 'user',
      params: IdParams,
      body: RenamePasskeyBody,
      response: PasskeyView,
      errors: { 404: '`not_found`: no such passkey of the account' },
    },
    async ({ auth, params, body, req }) =>
      PasskeyView.from(
        await renamePasskey(services.orm.em.fork(), {
          userId: auth.userId,
          tenantId: auth.tenantId,
          id: params.id,
          name: body.name,
          ip: req.ip,
        }),
      ),
  );

  r.post(
    '/auth/mfa/passkeys/check-options',
    {
      summary: 'Start a passkey factor check',
      description: CHECK_OPTIONS,
      access: 'user',
      response: REQUEST_OPTIONS,
      errors: { 400: '`mfa_not_enrolled`' },
    },
    async ({ auth }) =>
      noStore(
        await passkeyCheckOptions(services, services.orm.em.fork(), { userId: auth.userId, sessionId: auth.sid }),
      ),
  );

  r.delete(
    '/auth/mfa/passkeys/:id',
    {
      summary: 'Remove a passkey',
      description: REMOVE_PASSKEY,
      access: 'user',
      params: IdParams,
      body: FactorProofBody,
      status: 204,
      errors: {
        400: '`mfa_not_enrolled` (a code without a TOTP factor)',
        401: `\`mfa_code_invalid\`, ${ASSERTION_401}`,
        404: '`not_found`: no such passkey of the account',
        429: THROTTLED,
      },
    },
    async ({ auth, params, body, req }) => {
      await removePasskey(services, services.orm.em.fork(), {
        userId: auth.userId,
        tenantId: auth.tenantId,
        id: params.id,
        proof: factorProof(body),
        sessionId: auth.sid,
        ip: req.ip,
      });
      return noContent();
    },
  );

  r.post(
    '/auth/mfa/passkeys/assertion-options',
    {
      summary: 'Start a sign-in second factor by passkey',
      description: SIGN_IN_OPTIONS,
      access: 'public',
      body: MfaChallengeBody,
      response: REQUEST_OPTIONS,
      rateLimits: [perIp('mfa-passkey-options')],
      errors: { 400: '`mfa_not_enrolled`', 401: '`mfa_challenge_invalid`' },
    },
    async ({ body }) => noStore(await signInPasskeyOptions(services, body.challenge)),
  );

  r.post(
    '/auth/passkeys/login/options',
    {
      summary: 'Start a password-less sign-in',
      description: LOGIN_OPTIONS,
      access: 'public',
      response: REQUEST_OPTIONS,
      rateLimits: [perIp('passkey-login-options')],
    },
    async () => noStore(await passkeyLoginOptions(services)),
  );

  r.post(
    '/auth/passkeys/login',
    {
      summary: 'Sign in with a passkey',
      description: LOGIN,
      access: 'public',
      body: PasskeyLoginBody,
      response: TokenPairView,
      rateLimits: [perIp('passkey-login')],
      errors: {
        401: `${ASSERTION_401}, \`account_disabled\``,
        403: '`sso_required`: the organisation of the address makes single sign-on mandatory',
        429: THROTTLED,
      },
    },
    async ({ body, req }) =>
      tokenReply(
        await passkeyLogin(services, { response: authenticationResponse(body.passkey), device: deviceOf(req) }),
      ),
  );
}
