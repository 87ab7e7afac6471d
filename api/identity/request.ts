import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { normalizeEmail } from '../../domain/identity/createUser';
import type { DeviceInfo, TokenPair } from '../../domain/identity/sessions';
import { Reply } from '../http/routes';
import { TokenPairView } from './views';

/** Client address and user agent of a request, kept on sessions and in the audit log. */
export const deviceOf = (req: Request): DeviceInfo => ({
  ip: req.ip ?? null,
  userAgent: req.get('user-agent') ?? null,
});

/** The account a credential request is about (rate limits per account); undefined when the body has no e-mail. */
export const accountOf = (req: Request): string | undefined => {
  const email: unknown = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email ? normalizeEmail(email) : undefined;
};

/** The client address of a request, as rate limits count it (an IPv6 address by its /56 network). */
export const addressOf = (req: Request): string => ipKeyGenerator(req.ip ?? 'unknown');

/** An answer carrying tokens, never stored by caches on the way (RFC 6749 §5.1). */
export const noStore = (body: unknown, status = 200) => new Reply(status, body, { 'Cache-Control': 'no-store' });

export const tokenReply = (pair: TokenPair) => noStore(TokenPairView.from(pair));
