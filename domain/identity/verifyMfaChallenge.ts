import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { User } from '../../entities/identity/user';
import { unauthorized } from '../../lib/errors';
import { hashToken } from '../../lib/tokens';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { assertionOptions, checkPasskeyAssertion } from './passkeyFactor';
import { CHALLENGE_ATTEMPTS, checkFactorCode } from './secondFactor';
import { startSession, type DeviceInfo, type TokenPair } from './sessions';
import { attemptChallenge, endChallenge, type ChallengeRecord } from './store/mfa';
import { isChallengeShaped } from './totpRules';

const challengeInvalid = () =>
  unauthorized('mfa_challenge_invalid', 'The sign-in challenge is unknown, expired or used; sign in again');

/**
 * Counts an attempt on a sign-in challenge of this purpose and answers its record: 401 `mfa_challenge_invalid` for
 * an unknown, expired, used, exhausted (CHALLENGE_ATTEMPTS) or other-purpose challenge.
 */
export async function admitChallenge(
  services: Services,
  challenge: string,
  purpose: ChallengeRecord['purpose'],
): Promise<ChallengeRecord> {
  const record = isChallengeShaped(challenge)
    ? await attemptChallenge(services.redis, services.key, hashToken(challenge), CHALLENGE_ATTEMPTS)
    : null;
  if (!record || record.purpose !== purpose) throw challengeInvalid();
  return record;
}

/** Ends a challenge that was just passed and opens the session: a challenge opens one session at most. */
export async function redeemChallenge(
  services: Services,
  challenge: string,
  record: ChallengeRecord,
  device: DeviceInfo | undefined,
  factor: string,
): Promise<TokenPair> {
  if (!(await endChallenge(services.redis, services.key, hashToken(challenge)))) throw challengeInvalid();
  const em = services.orm.em.fork();
  const user = await em.findOne(User, { id: record.userId, disabledAt: null });
  if (!user) throw unauthorized('account_disabled', 'This account is disabled');
  audit(em, {
    action: 'auth.login',
    actorId: user.id,
    tenantId: record.tenantId,
    targetType: 'user',
    targetId: user.id,
    ip: device?.ip ?? record.ip,
    data: { factor },
  });
  return startSession(services, em, user, record.tenantId, device);
}

/**
 * Options of a passkey assertion answering a sign-in challenge (`mfa: required`), for the account's passkeys
 * (400 `mfa_not_enrolled` without any). Counts as an attempt on the challenge; a newer call replaces the options.
 */
export async function signInPasskeyOptions(services: Services, challenge: string) {
  const record = await admitChallenge(services, challenge, 'verify');
  const ceremony = { kind: 'factor', id: hashToken(challenge) } as const;
  return assertionOptions(services, services.orm.em.fork(), ceremony, record.userId);
}

/**
 * The second step of a sign-in with a factor: the challenge of POST /auth/login and a code of the authenticator
 * app, an unused recovery code (used up), or an assertion of one of the account's passkeys answering the options
 * of signInPasskeyOptions (checkPasskeyAssertion: a wrong one is 401 `passkey_invalid`). A challenge lives MFA_CHALLENGE_TTL_SECONDS, takes CHALLENGE_ATTEMPTS
 * codes at most and opens one session: replaying it is 401 `mfa_challenge_invalid`. A wrong or reused code is 401
 * `mfa_code_invalid`; wrong codes of an account are also limited over all its challenges (429).
 */
export async function verifyMfaChallenge(
  services: Services,
  props: { challenge: string; code?: string; passkey?: AuthenticationResponseJSON; device?: DeviceInfo },
): Promise<TokenPair> {
  const record = await admitChallenge(services, props.challenge, 'verify');
  const em = services.orm.em.fork();
  let factor: string;
  try {
    factor = props.passkey
      ? await checkPasskeyAssertion(services, em, {
          ceremony: { kind: 'factor', id: hashToken(props.challenge) },
          response: props.passkey,
          userId: record.userId,
        }).then(() => 'passkey')
      : await checkFactorCode(services, em, record.userId, props.code ?? '', { confirmed: true, recovery: true });
  } catch (err) {
    audit(em, {
      action: 'auth.login_failed',
      actorId: record.userId,
      tenantId: record.tenantId,
      targetType: 'user',
      targetId: record.userId,
      ip: props.device?.ip ?? record.ip,
      data: { reason: 'second_factor' },
    });
    await em.flush();
    throw err;
  }
  if (factor === 'recovery_code')
    audit(em, {
      action: 'mfa.recovery_code_used',
      actorId: record.userId,
      tenantId: record.tenantId,
      targetType: 'user',
      targetId: record.userId,
      ip: props.device?.ip ?? record.ip,
    });
  await em.flush();
  return redeemChallenge(services, props.challenge, record, props.device, factor);
}
