import { authenticator } from 'otplib';
import {
  acceptedTotpStep,
  isChallengeShaped,
  newChallengeToken,
  newRecoveryCodes,
  newTotpSecret,
  normalizeRecoveryCode,
  otpauthUri,
  recoveryCodeHash,
  totpCodeAt,
} from './totpRules';

const secret = 'JBSWY3DPEHPK3PXP';
const t0 = Date.UTC(2026, 11, 2, 10, 0, 15); // inside the step starting at 10:00:00
const step0 = Math.floor(t0 / 30_000);
/** An authenticator app's code at a time (otplib itself, with its defaults). */
const appCode = (at: number) => authenticator.clone({ epoch: at }).generate(secret);

describe('TOTP', () => {
  it('makes a 160-bit base32 secret and an otpauth URI apps scan', () => {
    const s = newTotpSecret();
    expect(s).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri(s, 'ada@example.test', 'Platform Suite'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(uri.searchParams.get('secret')).toBe(s);
    expect(uri.searchParams.get('issuer')).toBe('Platform Suite');
  });

  it('computes what an authenticator app shows', () => {
    expect(totpCodeAt(secret, t0)).toBe(appCode(t0));
  });

  it.each([
    ['the current code', appCode(t0), null, step0],
    ['the previous step (drift)', appCode(t0 - 30_000), null, step0 - 1],
    ['the next step (drift)', appCode(t0 + 30_000), null, step0 + 1],
    ['two steps old', appCode(t0 - 60_000), null, null],
    ['a code of a step already used', appCode(t0), step0, null],
    ['an earlier step than the one used', appCode(t0 - 30_000), step0, null],
    ['a later step than the one used', appCode(t0), step0 - 1, step0],
    ['not six digits', '12345', null, null],
    ['letters', 'abcdef', null, null],
  ])('%s', (_what, code, lastStep, accepted) => {
    expect(acceptedTotpStep(code, secret, t0, lastStep)).toBe(accepted);
  });

  it('refuses a wrong code', () => {
    const code = appCode(t0);
    const other = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect(acceptedTotpStep(other, secret, t0, null)).toBeNull();
  });
});

describe('recovery codes', () => {
  it('hands out ten distinct codes, kept as hashes of their canonical form', () => {
    const { codes, hashes } = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    expect(hashes).toEqual(codes.map((c) => recoveryCodeHash(c)));
    expect(recoveryCodeHash(codes[0].toUpperCase().replace(/-/g, ' '))).toBe(hashes[0]);
  });

  it.each([
    ['abcd-efgh-ijkl-mnop', 'abcdefghijklmnop'],
    [' ABCD EFGH IJKL MNOP ', 'abcdefghijklmnop'],
    ['abcd-efgh-ijkl-mno', null],
    ['abcd-efgh-ijkl-mno1', null],
    ['123456', null],
  ])('%j -> %j', (input, canonical) => {
    expect(normalizeRecoveryCode(input)).toBe(canonical);
  });
});

describe('challenge tokens', () => {
  it('are mfa_ and 43 base64url characters', () => {
    const token = newChallengeToken();
    expect(isChallengeShaped(token)).toBe(true);
    expect(isChallengeShaped(`${token}x`)).toBe(false);
    expect(isChallengeShaped('mfa_short')).toBe(false);
  });
});
