import type { Em } from '../../lib/db';
import { hashToken, newOpaqueToken } from '../../lib/tokens';
import { EmailToken, type EmailTokenPurpose } from '../../entities/identity/session';
import type { User } from '../../entities/identity/user';
import { emailTokenExpiry } from './emailTokens';
import { retireEmailTokens } from './store/emailTokens';

/**
 * Issues a single-use token for a mailed link, in the caller's unit of work. Earlier unused tokens of the
 * same purpose stop working: only the newest mail's link is valid. Returns the raw token (stored hashed).
 */
export async function issueEmailToken(em: Em, user: User, purpose: EmailTokenPurpose): Promise<string> {
  await retireEmailTokens(em, user, purpose);
  const token = newOpaqueToken();
  em.create(EmailToken, { user, purpose, tokenHash: hashToken(token), expiresAt: emailTokenExpiry(purpose) });
  return token;
}
