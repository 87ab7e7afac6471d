import type { RedisClient } from '../../../lib/redis';
import type { Em } from '../../../lib/db';
import type { Keyspace } from '../../../lib/redis';
import { RecoveryCode, TotpFactor } from '../../../entities/identity/mfa';
import { Passkey } from '../../../entities/identity/passkey';

/** Statements of second factors (TOTP, recovery codes) and the Redis structures of sign-in challenges. */

/** The account's TOTP factor, confirmed or not, or null. */
export const totpFactorOf = (em: Em, userId: string) => em.findOne(TotpFactor, { userId });

/** Whether the account has a confirmed TOTP factor. */
export const hasConfirmedTotp = async (em: Em, userId: string) =>
  (await em.count(TotpFactor, { userId, confirmedAt: { $ne: null } })) > 0;

/** Whether the account has a second factor: a confirmed TOTP factor or a passkey. */
export const hasSecondFactor = async (em: Em, userId: string) =>
  (await hasConfirmedTotp(em, userId)) || (await em.count(Passkey, { userId })) > 0;

/**
 * Takes a time step of a factor: true when no later or equal step was accepted before (one statement, so two
 * requests with the same code cannot both pass).
 */
export const takeTotpStep = async (em: Em, factorId: string, step: number) =>
  (await em.nativeUpdate(
    TotpFactor,
    { id: factorId, $or: [{ lastStep: null }, { lastStep: { $lt: step } }] },
    { lastStep: step },
  )) === 1;

/** Replaces the account's recovery codes by these (hashes). */
export async function replaceRecoveryCodes(em: Em, userId: string, hashes: string[]): Promise<void> {
  await em.nativeDelete(RecoveryCode, { userId });
  for (const codeHash of hashes) em.create(RecoveryCode, { userId, codeHash, usedAt: null });
}

/** Uses a recovery code of the account: true when it existed unused (one statement: single use under races). */
export const useRecoveryCode = async (em: Em, userId: string, codeHash: string) =>
  (await em.nativeUpdate(RecoveryCode, { userId, codeHash, usedAt: null }, { usedAt: new Date() })) === 1;

/** Unused recovery codes of the account. */
export const countUnusedRecoveryCodes = (em: Em, userId: string) => em.count(RecoveryCode, { userId, usedAt: null });

/** Removes the account's TOTP factor and recovery codes. */
export async function deleteTotpFactor(em: Em, userId: string): Promise<void> {
  await em.nativeDelete(RecoveryCode, { userId });
  await em.nativeDelete(TotpFactor, { userId });
}

/** What a sign-in challenge remembers until the second factor is proven (or enrolled). */
export interface ChallengeRecord {
  userId: string;
  tenantId: string;
  /** `verify`: a factor is enrolled; `enrol`: the organisation requires one and the account has none. */
  purpose: 'verify' | 'enrol';
  ip: string;
  userAgent: string;
}

const challengeKey = (key: Keyspace, hash: string) => key('mfa', 'challenge', hash);

/** Stores a challenge under the hash of its token for `ttlMs`. */
export const saveChallenge = (
  redis: RedisClient,
  key: Keyspace,
  hash: string,
  record: ChallengeRecord,
  ttlMs: number,
) =>
  redis
    .multi()
    .hset(challengeKey(key, hash), { ...record, attempts: 0 })
    .pexpire(challengeKey(key, hash), ttlMs)
    .exec();

/**
 * Counts one attempt on a challenge, atomically (parallel guesses are all counted). KEYS[1] the challenge, ARGV[1]
 * the most attempts: answers the record's fields for an admitted attempt, `{}` for an unknown (expired, used)
 * challenge, and deletes one past its attempts.
 */
const ATTEMPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
local n = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
if n > tonumber(ARGV[1]) then redis.call('DEL', KEYS[1]) return {} end
return redis.call('HGETALL', KEYS[1])`;

/** The challenge's record when an attempt on it is admitted; null when unknown, expired, used or out of attempts. */
export async function attemptChallenge(
  redis: RedisClient,
  key: Keyspace,
  hash: string,
  maxAttempts: number,
): Promise<ChallengeRecord | null> {
  const flat = (await redis.eval(ATTEMPT, 1, challengeKey(key, hash), maxAttempts)) as string[];
  if (!flat.length) return null;
  const record: Record<string, string> = {};
  for (let i = 0; i < flat.length; i += 2) record[flat[i]] = flat[i + 1];
  return record as unknown as ChallengeRecord;
}

/** Ends a challenge: true for the one caller that ended it (single use under races). */
export const endChallenge = async (redis: RedisClient, key: Keyspace, hash: string) =>
  (await redis.del(challengeKey(key, hash))) === 1;

const failuresKey = (key: Keyspace, userId: string) => key('mfa', 'failures', userId);

/** Wrong codes of the account in the current window, and the ms until it ends. */
export async function factorFailures(redis: RedisClient, key: Keyspace, userId: string): Promise<[number, number]> {
  const [[, count], [, ttl]] = (await redis
    .multi()
    .get(failuresKey(key, userId))
    .pttl(failuresKey(key, userId))
    .exec()) as [[null, string | null], [null, number]];
  return [Number(count ?? 0), ttl];
}

/** Counts a wrong code of the account in a window of `windowMs` from its first failure. */
export async function countFactorFailure(redis: RedisClient, key: Keyspace, userId: string, windowMs: number) {
  const k = failuresKey(key, userId);
  if ((await redis.incr(k)) === 1) await redis.pexpire(k, windowMs);
}
