import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { normalizeEmail } from '../../domain/identity/createUser';
import type { DeviceInfo, TokenPair } from '../../domain/identity/sessions';
import { Reply } from '../http/routes';
import { TokenPairView } from './views';

/** Client address and user agent of a request, kept on sessions and in the audit log. */
export const deviceOf = (req: Request): DeviceInfo => ({ ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null });

/** The account a credential request is about (rate limits per account); undefined when the body has no e-mail. */
export const accountOf = (req: Request): string | undefined => {
  const email: unknown = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email ? normalizeEmail(email) : undefined;
};

/** The client address of a request, as rate limits count it (an IPv6 address by its /56 network). */
export const addressOf = (req: Request): string => ipKeyGenerator(req.ip ?? 'unknown');

/** How sign-in is throttled (domain/identity/admitPasswordAttempt.ts), for the descriptions of the routes that sign in. */
export const SIGNIN_THROTTLING =
  'Throttling (429 `rate_limited` with Retry-After, as the OWASP Authentication Cheat Sheet advises), counting failures only, in 15-minute windows: SIGNIN_FAILURES_PER_ADDRESS per address whatever the account; SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS per (account, address), cleared by a success from there; past SIGNIN_FAILURES_BEFORE_DELAY failures of an account, an address that failed on it waits 1 s, 2 s, 4 s ... (at most SIGNIN_DELAY_MAX_SECONDS) between attempts, while an address that did not is never delayed: strangers cannot lock the owner out, and a classroom behind one address signs in freely. Over a limit the password is not checked. Every attempt, successful or not, also counts towards RATE_LIMIT_ANON_PER_MINUTE per address, a flood guard far above a classroom.';

export const SIGNIN_429 = 'Too many failed sign-ins (`rate_limited`): failures counted by client address (SIGNIN_FAILURES_PER_ADDRESS); by account and client address (SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS); by account (a progressive delay, never a lockout)';

/** An answer carrying tokens, never stored by caches on the way (RFC 6749 §5.1). */
export const noStore = (body: unknown, status = 200) => new Reply(status, body, { 'Cache-Control': 'no-store' });

export const tokenReply = (pair: TokenPair) => noStore(TokenPairView.from(pair));
