import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, idColumn } from '../base';
import { User } from './user';

/**
 * A TOTP second factor (RFC 6238) of an account, at most one. Unconfirmed until a first code proves the app
 * holds the secret; only a confirmed one is asked for at sign-in. `lastStep` is the last 30-second step a code was
 * accepted for: a step is never accepted twice (a replayed or shoulder-surfed code is refused).
 */
export const TotpFactor = defineEntity({
  name: 'TotpFactor',
  tableName: 'identity_totp_factors',
  properties: {
    id: idColumn(),
    userId: () => p.manyToOne(User).mapToPk().fieldName('user_id').deleteRule('cascade').unique(),
    /** The shared secret, base32, as the authenticator app holds it. */
    secret: p.string().length(64).hidden(),
    confirmedAt: p.datetime().nullable(),
    lastStep: p.integer().nullable(),
    createdAt: createdAt(),
  },
});
export type TotpFactor = InferEntity<typeof TotpFactor>;

/** A single-use recovery code of an account's second factor, stored as the SHA-256 of its canonical form. */
export const RecoveryCode = defineEntity({
  name: 'RecoveryCode',
  tableName: 'identity_recovery_codes',
  properties: {
    id: idColumn(),
    userId: () => p.manyToOne(User).mapToPk().fieldName('user_id').deleteRule('cascade').index(),
    codeHash: p.string().length(64).unique().hidden(),
    usedAt: p.datetime().nullable(),
    createdAt: createdAt(),
  },
});
export type RecoveryCode = InferEntity<typeof RecoveryCode>;
