import { AppError, badRequest } from '../../lib/errors';
import type { Em } from '../../lib/db';
import { hashToken } from '../../lib/tokens';
import type { Services } from '../services';
import { SIGNIN_FAILURE_WINDOW_SECONDS } from './admitPasswordAttempt';
import { acceptedTotpStep, newChallengeToken, recoveryCodeHash } from './totpRules';
import {
  countFactorFailure,
  factorFailures,
  saveChallenge,
  takeTotpStep,
  totpFactorOf,
  useRecoveryCode,
  type ChallengeRecord,
} from './store/mfa';

/** What a sign-in with a second factor answers instead of tokens. */
export interface MfaChallenge {
  /** `required`: send a code to POST /auth/mfa/verify; `enrolment_required`: enrol first (the organisation asks it). */
  mfa: 'required' | 'enrolment_required';
  challenge: string;
  expiresIn: number;
}

/** Wrong codes a single challenge accepts before it ends. */
export const CHALLENGE_ATTEMPTS = 5;

/** Opens a short-lived, single-use challenge for a user whose password was right. */
export async function openChallenge(services: Services, record: ChallengeRecord): Promise<MfaChallenge> {
  const challenge = newChallengeToken();
  const ttl = services.config.MFA_CHALLENGE_TTL_SECONDS;
  await saveChallenge(services.redis, services.key, hashToken(challenge), record, ttl * 1000);
  return { mfa: record.purpose === 'verify' ? 'required' : 'enrolment_required', challenge, expiresIn: ttl };
}

export const codeInvalid = () => new AppError(401, 'mfa_code_invalid', 'The code is wrong, expired or already used');

/** 429 when the account has entered MFA_FAILURES_PER_ACCOUNT wrong codes in the window. */
export async function admitFactorAttempt(services: Services, userId: string): Promise<void> {
  const [failures, ttl] = await factorFailures(services.redis, services.key, userId);
  if (failures < services.config.MFA_FAILURES_PER_ACCOUNT) return;
  const seconds = Math.max(1, Math.ceil(ttl / 1000));
  throw new AppError(429, 'rate_limited', `Too many wrong codes for this account; retry in ${seconds} s`, undefined, {
    'Retry-After': String(seconds),
  });
}

/**
 * Checks a code of the account's TOTP factor (six digits; `confirmed` false: the factor being enrolled) or, with
 * `recovery`, one of its recovery codes (used up by this check). Throttled per account (429); a wrong, expired or
 * reused code is 401 `mfa_code_invalid` and counts. Answers which kind of code it was.
 */
export async function checkFactorCode(
  services: Services,
  em: Em,
  userId: string,
  code: string,
  options: { confirmed: boolean; recovery: boolean },
): Promise<'totp' | 'recovery_code'> {
  await admitFactorAttempt(services, userId);
  const factor = await totpFactorOf(em, userId);
  if (!factor || !!factor.confirmedAt !== options.confirmed)
    throw badRequest(
      'mfa_not_enrolled',
      options.confirmed ? 'No second factor is enrolled' : 'No enrolment is pending',
    );
  const step = acceptedTotpStep(code.trim(), factor.secret, Date.now(), factor.lastStep ?? null);
  if (step !== null && (await takeTotpStep(em, factor.id, step))) return 'totp';
  const recovery = options.recovery ? recoveryCodeHash(code) : null;
  if (recovery && (await useRecoveryCode(em, userId, recovery))) return 'recovery_code';
  await countFactorFailure(services.redis, services.key, userId, SIGNIN_FAILURE_WINDOW_SECONDS * 1000);
  throw codeInvalid();
}
