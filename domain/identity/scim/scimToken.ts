import { randomBytes } from 'node:crypto';
import { hashToken } from '../../../lib/tokens';

/**
 * SCIM tokens look like `scim_` + the base64url of 32 random bytes (43 characters): 256 random bits, so their
 * SHA-256 is all the server keeps. The prefix lets secret scanners find a leaked one (`\bscim_[A-Za-z0-9_-]{43}\b`)
 * and the server refuse anything else (an access token sent by mistake) without a lookup.
 */
const SHAPE = /^scim_[A-Za-z0-9_-]{43}$/;

/** A new token (shown once) and what is stored of it. */
export function generateScimToken(): { token: string; hash: string } {
  const token = `scim_${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}

/** Whether a bearer value has the form of a SCIM token. */
export const isScimTokenShaped = (secret: string): boolean => SHAPE.test(secret);

/** lastUsedAt is a minute-resolution fact: a use is written when the recorded one is older than this. */
export const SCIM_TOKEN_USE_RESOLUTION_MS = 60_000;
