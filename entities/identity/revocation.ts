import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const revocationKinds = ['jti', 'sid', 'user', 'member'] as const;
export type RevocationKind = (typeof revocationKinds)[number];

/**
 * The record of every access-token revocation (lib/revocation.ts): PostgreSQL is its source of truth, the
 * Redis list every request checks is a cache rebuilt from this table. A row matters until `expiresAt`, past
 * which no token it concerns can still be valid; expired rows are pruned as new ones are written.
 */
export const TokenRevocation = defineEntity({
  name: 'TokenRevocation',
  tableName: 'token_revocations',
  indexes: [{ properties: ['expiresAt'] }],
  properties: {
    /** jti: one token; sid: every token of a session; user: a user's tokens; member: a user's tokens for one organisation. */
    kind: p.enum([...revocationKinds]).primary(),
    /** The jti, the session id, the user id, or "<tenantId>:<userId>". */
    subject: p.string().length(80).primary(),
    /** Tokens issued up to this instant are revoked (user, member); for jti and sid, when it was revoked. */
    notBefore: p.datetime(),
    expiresAt: p.datetime(),
  },
});
export type TokenRevocation = InferEntity<typeof TokenRevocation>;
