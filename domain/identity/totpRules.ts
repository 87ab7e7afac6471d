import { randomBytes } from 'node:crypto';
import { authenticator } from 'otplib';
import { hashToken } from '../../lib/tokens';

/**
 * TOTP (RFC 6238) as every authenticator app computes it: SHA-1, 6 digits, 30-second steps. A code is accepted
 * for the current step and one step either side (clock drift of a phone), and a step once used is never accepted
 * again (a code seen over a shoulder or replayed is refused).
 */
export const TOTP_STEP_SECONDS = 30;
const totp = authenticator.clone({ step: TOTP_STEP_SECONDS, digits: 6, window: 1 });

/** A new shared secret: 160 random bits (RFC 4226's recommendation), base32 as authenticator apps take it. */
export const newTotpSecret = (): string => totp.generateSecret(20);

/** The otpauth:// URI an authenticator app scans (as a QR code) or takes as a link. */
export const otpauthUri = (secret: string, account: string, issuer: string): string =>
  totp.keyuri(account, issuer, secret);

/** The current code of a secret at `nowMs` (what an authenticator app shows). */
export const totpCodeAt = (secret: string, nowMs: number): string => totp.clone({ epoch: nowMs }).generate(secret);

/**
 * The time step a code proves at `nowMs`, or null: not six digits, wrong, outside the drift window, or of a step
 * not later than `lastStep` (already used: a replay).
 */
export function acceptedTotpStep(code: string, secret: string, nowMs: number, lastStep: number | null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp.clone({ epoch: nowMs }).checkDelta(code, secret);
  if (delta === null) return null;
  const step = Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

/** Recovery codes handed out at enrolment, each single use. */
export const RECOVERY_CODE_COUNT = 10;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * Recovery codes look like `abcd-efgh-ijkl-mnop`: 16 base32 characters, 80 random bits, so their SHA-256 is all
 * that is kept and one indexed lookup finds a code (guessing is throttled like every factor attempt).
 */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: count }, () => {
    const bytes = randomBytes(16);
    const chars = [...bytes].map((b) => BASE32[b & 31]).join('');
    return chars.match(/.{4}/g)!.join('-');
  });
  return { codes, hashes: codes.map((c) => hashToken(normalizeRecoveryCode(c)!)) };
}

/** A typed recovery code in its canonical form (blanks and dashes dropped, lower case), or null when not one. */
export function normalizeRecoveryCode(input: string): string | null {
  const canonical = input.replace(/[\s-]/g, '').toLowerCase();
  return /^[a-z2-7]{16}$/.test(canonical) ? canonical : null;
}

/** The hash a recovery code is stored and looked up by; null for a string that is not one. */
export const recoveryCodeHash = (input: string): string | null => {
  const canonical = normalizeRecoveryCode(input);
  return canonical ? hashToken(canonical) : null;
};

/** What a sign-in challenge token looks like: `mfa_` + base64url of 32 random bytes; stored in Redis by its hash. */
export const newChallengeToken = (): string => `mfa_${randomBytes(32).toString('base64url')}`;
export const isChallengeShaped = (token: string): boolean => /^mfa_[A-Za-z0-9_-]{43}$/.test(token);
