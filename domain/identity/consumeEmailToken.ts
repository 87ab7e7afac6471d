import type { Em } from '../../lib/db';
import { badRequest } from '../../lib/errors';
import type { EmailTokenPurpose } from '../../entities/identity/session';
import type { User } from '../../entities/identity/user';
import { INVALID_TOKEN_CODES } from './emailTokens';
import { lockUsableEmailToken } from './store/emailTokens';

/**
 * Marks a token used and returns its user, or throws 400 (`confirmation_token_invalid`, `reset_token_invalid`)
 * when it is unknown, used, expired or of another purpose. Call it inside a transaction: the row is locked,
 * so the token is single-use under concurrent requests, and a later refusal in the same transaction (a
 * password against the policy) rolls the use back.
 */
export async function consumeEmailToken(tx: Em, token: string, purpose: EmailTokenPurpose): Promise<User> {
  const row = await lockUsableEmailToken(tx, token, purpose);
  if (!row)
    throw badRequest(INVALID_TOKEN_CODES[purpose], 'This link is invalid, already used or expired; ask for a new one');
  row.usedAt = new Date();
  return row.user;
}
