import { randomBytes } from 'node:crypto';
import type { AppPasswordScope } from '../../entities/identity/appPassword';
import { hashToken } from '../../lib/tokens';

/**
 * App passwords look like `ps_` + the base64url of 32 random bytes (43 characters), e.g.
 * `ps_q5Z0...`: 256 random bits, so their SHA-256 is all the server keeps. `ps_` lets secret scanners find a
 * leaked one (`\bps_[A-Za-z0-9_-]{43}\b`) and this server refuse anything else without a lookup.
 */
const SHAPE = /^ps_[A-Za-z0-9_-]{43}$/;

/** lastUsedAt is a minute-resolution fact: a use is written when the recorded one is older than this. */
export const APP_PASSWORD_USE_RESOLUTION_MS = 60_000;

/** Active app passwords one member may hold in one organisation (one per device is the intended use). */
export const APP_PASSWORDS_PER_MEMBER = 50;

export interface GeneratedAppPassword {
  /** The secret itself: shown once, never stored. */
  password: string;
  /** What is stored: its SHA-256, hex. */
  hash: string;
}

export function generateAppPassword(): GeneratedAppPassword {
  const password = `ps_${randomBytes(32).toString('base64url')}`;
  return { password, hash: hashToken(password) };
}

/** Whether a secret has the form of an app password (an account password or a typo does not). */
export const isAppPasswordShaped = (secret: string): boolean => SHAPE.test(secret);

/** What verification reads of a stored, unrevoked app password whose owner is an active member. */
export interface StoredAppPassword {
  /** The account's e-mail, stored lower-cased. */
  email: string;
  scopes: readonly string[];
}

/**
 * Whether the Basic credentials a DAV client sent open `scope` with this stored password: the login must be the
 * account's e-mail (case and surrounding blanks aside), and the password must grant the scope.
 */
export const grantsAppPassword = (stored: StoredAppPassword, login: string, scope: AppPasswordScope): boolean =>
  stored.email === login.trim().toLowerCase() && stored.scopes.includes(scope);

/** Whether this use is to be recorded (the recorded one is older than the resolution, or there is none). */
export const useToRecord = (lastUsedAt: Date | null, now: Date): boolean =>
  !lastUsedAt || now.getTime() - lastUsedAt.getTime() >= APP_PASSWORD_USE_RESOLUTION_MS;

/** The scopes as stored: each once, in the catalogue's order. */
export const normalizeScopes = (scopes: readonly AppPasswordScope[]): AppPasswordScope[] =>
  (['caldav', 'webdav'] as const).filter((s) => scopes.includes(s));
