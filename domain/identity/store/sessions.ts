import type { RedisClient } from '../../../lib/redis';
import { LockMode } from '@mikro-orm/core';
import type { Em } from '../../../lib/db';
import { lean } from '../../../lib/lean';
import type { Keyspace } from '../../../lib/redis';
import { seal, unseal } from '../../../lib/seal';
import { hashToken } from '../../../lib/tokens';
import { RefreshToken, UserSession } from '../../../entities/identity/session';
import type { User } from '../../../entities/identity/user';

/** Statements of sessions and their refresh tokens, and the refresh grace period's Redis entries. */

/** The refresh token of this hash with its session and user, locked until the transaction ends (rotation). */
export const lockRefreshToken = (tx: Em, refreshToken: string) =>
  tx.findOne(
    RefreshToken,
    { tokenHash: hashToken(refreshToken) },
    { populate: ['session', 'session.user'], lockMode: LockMode.PESSIMISTIC_WRITE },
  );

/** A session, locked until the transaction ends (a switch). */
export const lockSession = (tx: Em, sessionId: string) =>
  tx.findOne(UserSession, { id: sessionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });

/** A session not ended, optionally only if it is this user's. */
export const liveSession = (em: Em, sessionId: string, userId?: string) =>
  em.findOne(UserSession, { id: sessionId, revokedAt: null, ...(userId ? { user: userId } : {}) });

/** The session of `user` used last among those in `tenantIds` (its organisation only). */
export const lastUsedSessionIn = (em: Em, user: User, tenantIds: string[]) =>
  em.findOne(
    UserSession,
    { user, tenantId: { $in: tenantIds } },
    { orderBy: { lastUsedAt: 'desc' }, fields: ['tenantId'] },
  );

/** Marks a session ended, if it is not already. */
export const markSessionEnded = (em: Em, sessionId: string, reason: string) =>
  em.nativeUpdate(UserSession, { id: sessionId, revokedAt: null }, { revokedAt: new Date(), revokedReason: reason });

/** Marks every session of a user ended. */
export const markUserSessionsEnded = (em: Em, userId: string, reason: string) =>
  em.nativeUpdate(UserSession, { user: userId, revokedAt: null }, { revokedAt: new Date(), revokedReason: reason });

/** Marks every session of a user but one ended; returns the ids of those it ended. */
export async function markOtherSessionsEnded(
  em: Em,
  userId: string,
  keepSessionId: string,
  reason: string,
): Promise<string[]> {
  const others = await em.find(
    UserSession,
    { user: userId, revokedAt: null, id: { $ne: keepSessionId } },
    { fields: ['id'] },
  );
  if (!others.length) return [];
  const ids = others.map((s) => s.id);
  await em.nativeUpdate(
    UserSession,
    { id: { $in: ids }, revokedAt: null },
    { revokedAt: new Date(), revokedReason: reason },
  );
  return ids;
}

// A lean statement (docs/database-path.md). Sessions belong to a user, not to an organisation (their tenantId
// is only the active one), so the statement is bound to the caller's user id.
// $1 user, $2 now, $3 cursor, $4 limit.
export const sessionsOfUserPage = lean(UserSession, {
  where: 'user_id = $1 and revoked_at is null and expires_at > $2 and ($3::uuid is null or id < $3)',
  orderBy: 'id desc',
  limitParam: '$4',
});

// A lean statement (docs/database-path.md) with the user joined. Sessions are platform-wide rows (their tenantId
// is only the active organisation), read here by platform administrators.
// $1 now, $2 user or null, $3 cursor, $4 limit.
export const activeSessionsPage = lean(UserSession, {
  join: 'join users u on u.id = user_sessions.user_id',
  where: `user_sessions.revoked_at is null and user_sessions.expires_at > $1 and ($2::uuid is null or user_sessions.user_id = $2)
    and ($3::uuid is null or user_sessions.id < $3)`,
  orderBy: 'user_sessions.id desc',
  limitParam: '$4',
  extra: { userId: 'u.id', userEmail: 'u.email' },
});

/** Where the refresh grace period keeps its pairs: the Redis connection and keyspace of the services. */
export type GraceStore = { redis: Pick<RedisClient, 'get' | 'set'>; key: Keyspace };

const GRACE_PURPOSE = 'refresh-grace';
const graceKey = (store: GraceStore, refreshToken: string) => store.key('rt-grace', hashToken(refreshToken));

/**
 * Keeps the pair an exchange produced for `ttlSeconds` in Redis, sealed under the presented refresh token
 * itself: only whoever presents that token again can read it.
 */
export async function rememberExchange(
  store: GraceStore,
  refreshToken: string,
  pair: object,
  ttlSeconds: number,
): Promise<void> {
  await store.redis.set(
    graceKey(store, refreshToken),
    seal(refreshToken, GRACE_PURPOSE, JSON.stringify(pair)),
    'EX',
    ttlSeconds,
  );
}

/** The pair the exchange of this refresh token produced, while remembered. */
export async function rememberedExchange<Pair>(store: GraceStore, refreshToken: string): Promise<Pair | null> {
  const sealed = await store.redis.get(graceKey(store, refreshToken));
  const json = sealed && unseal(refreshToken, GRACE_PURPOSE, sealed);
  return json ? (JSON.parse(json) as Pair) : null;
}
