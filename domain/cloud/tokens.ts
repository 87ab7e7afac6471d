import { createHmac } from 'node:crypto';
import { forbidden } from '../../lib/errors';
import { sameBytes } from '../../lib/tokens';
import type { Services } from '../services';

/** What the tokens need of the services: the key derivation and the links' lifetime. */
type Signer = Pick<Services, 'deriveSecret' | 'config'>;

/**
 * What a token of the drive authorises: rendering a file (`inline`), downloading it (`download`), downloading the
 * file of a link share once its password was given (`share`, over the share's id), showing a file's thumbnail (`preview`). The purpose is signed, so a
 * token of one is worthless for another.
 */
export type TokenPurpose = 'inline' | 'download' | 'share' | 'preview';
const tokenErrors: Record<TokenPurpose, { invalid: string; expired: string; what: string }> = {
  inline: { invalid: 'inline_token_invalid', expired: 'inline_token_expired', what: 'inline token' },
  download: { invalid: 'download_token_invalid', expired: 'download_token_expired', what: 'download token' },
  share: { invalid: 'download_token_invalid', expired: 'download_token_expired', what: 'download token' },
  preview: { invalid: 'preview_token_invalid', expired: 'preview_token_expired', what: 'preview token' },
};

/** The key of these tokens: derived for them alone (HKDF of JWT_SECRET), unlike any other signature. */
const tokenKey = (services: Signer) => services.deriveSecret('cloud-inline-token');
const mac = (services: Signer, purpose: TokenPurpose, id: string, exp: number) =>
  createHmac('sha256', tokenKey(services)).update(`${purpose}\n${id}\n${exp}`).digest('base64url');

/**
 * t = "<expiry, unix seconds>.<HMAC-SHA256(key, purpose \n id \n expiry), base64url>": a capability for one
 * purpose on one file (or share) until the expiry, for links and embeds that cannot send a token.
 */
export function signedToken(
  services: Signer,
  purpose: TokenPurpose,
  id: string,
  ttlSeconds = services.config.CLOUD_LINK_TTL_SECONDS,
): string {
  const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
  return `${exp}.${mac(services, purpose, id, exp)}`;
}

export const inlineToken = (services: Signer, fileId: string, ttlSeconds?: number) =>
  signedToken(services, 'inline', fileId, ttlSeconds);

/** 403 `<purpose>_token_invalid` for a tampered, foreign or missing t, `..._expired` past its expiry. */
export function checkToken(services: Signer, purpose: TokenPurpose, id: string, t: string | undefined): void {
  const [expText, sig] = (t ?? '').split('.');
  const exp = Number(expText);
  const expected = Buffer.from(Number.isSafeInteger(exp) ? mac(services, purpose, id, exp) : '');
  const given = Buffer.from(sig ?? '');
  const errors = tokenErrors[purpose];
  if (!expected.length || !sameBytes(given, expected)) throw forbidden(errors.invalid, `The ${errors.what} is invalid`);
  if (exp * 1000 < Date.now()) throw forbidden(errors.expired, `The ${errors.what} has expired; ask for a new address`);
}
