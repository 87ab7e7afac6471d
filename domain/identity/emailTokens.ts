import { LockMode } from '@mikro-orm/core';
import type { Em } from '../../lib/db';
import { badRequest } from '../../lib/errors';
import { hashToken, newOpaqueToken } from '../../lib/tokens';
import { EmailToken, type EmailTokenPurpose } from '../../entities/identity/session';
import type { User } from '../../entities/identity/user';

/** How long a mailed link works. The mail templates quote these numbers. */
export const EMAIL_TOKEN_TTL_HOURS: Record<EmailTokenPurpose, number> = { confirm_email: 48, reset_password: 1 };

const invalidCode: Record<EmailTokenPurpose, string> = { confirm_email: 'confirmation_token_invalid', reset_password: 'reset_token_invalid' };

/**
 * Issues a single-use token for a mailed link, in the caller's unit of work. Earlier unused tokens of the
 * same purpose stop working: only the newest mail's link is valid. Returns the raw token (stored hashed).
 */
export async function issueEmailToken(em: Em, user: User, purpose: EmailTokenPurpose): Promise<string> {
  await em.nativeUpdate(EmailToken, { user, purpose, usedAt: null }, { usedAt: new Date() });
  const token = newOpaqueToken();
  em.create(EmailToken, { user, purpose, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + EMAIL_TOKEN_TTL_HOURS[purpose] * 3_600_000) });
  return token;
}

/**
 * Marks a token used and returns its user, or throws 400 (`confirmation_token_invalid`, `reset_token_invalid`)
 * when it is unknown, used, expired or of another purpose. Call it inside a transaction: the row is locked,
 * so the token is single-use under concurrent requests, and a later refusal in the same transaction (a
 * password against the policy) rolls the use back.
 */
export async function consumeEmailToken(tx: Em, token: string, purpose: EmailTokenPurpose): Promise<User> {
  const row = await tx.findOne(
    EmailToken,
    { tokenHash: hashToken(token), purpose, usedAt: null, expiresAt: { $gt: new Date() } },
    { populate: ['user'], lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  if (!row) throw badRequest(invalidCode[purpose], 'This link is invalid, already used or expired; ask for a new one');
  row.usedAt = new Date();
  return row.user;
}
