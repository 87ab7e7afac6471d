import { LockMode } from '@mikro-orm/core';
import type { Em } from '../../../lib/db';
import { hashToken } from '../../../lib/tokens';
import { EmailToken, type EmailTokenPurpose } from '../../../entities/identity/session';
import type { User } from '../../../entities/identity/user';

/** Statements of the single-use tokens of mailed links. */

/** Marks every unused token of a user for a purpose used (their links stop working). */
export const retireEmailTokens = (em: Em, user: User, purpose: EmailTokenPurpose) =>
  em.nativeUpdate(EmailToken, { user, purpose, usedAt: null }, { usedAt: new Date() });

/** The unused, unexpired token of this value and purpose with its user, locked until the transaction ends. */
export const lockUsableEmailToken = (tx: Em, token: string, purpose: EmailTokenPurpose) =>
  tx.findOne(
    EmailToken,
    { tokenHash: hashToken(token), purpose, usedAt: null, expiresAt: { $gt: new Date() } },
    { populate: ['user'], lockMode: LockMode.PESSIMISTIC_WRITE },
  );
