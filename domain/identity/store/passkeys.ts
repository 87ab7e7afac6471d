import type { Em } from '../../../lib/db';
import type { Keyspace, RedisClient } from '../../../lib/redis';
import { Passkey } from '../../../entities/identity/passkey';

/** Statements of WebAuthn passkeys, and the Redis keys of their pending ceremonies' challenges. */

/** The account's passkeys, oldest first. */
export const passkeysOf = (em: Em, userId: string) => em.find(Passkey, { userId }, { orderBy: { createdAt: 'asc' } });

/** One passkey of the account; null for an unknown one or another account's. */
export const passkeyOf = (em: Em, userId: string, id: string) => em.findOne(Passkey, { id, userId });

/** The passkey of a credential id, whoever owns it (a password-less sign-in names no account). */
export const passkeyByCredential = (em: Em, credentialId: string) => em.findOne(Passkey, { credentialId });

/** Deletes a passkey of the account: true when it existed. */
export const deletePasskey = async (em: Em, userId: string, id: string) =>
  (await em.nativeDelete(Passkey, { id, userId })) === 1;

/**
 * Records an assertion's counter: true when the stored counter is still the one the assertion was checked
 * against (one statement, so two assertions racing with the same counter cannot both pass).
 */
export const advancePasskeyCounter = async (em: Em, id: string, from: number, to: number) =>
  (await em.nativeUpdate(Passkey, { id, counter: from }, { counter: to, lastUsedAt: new Date() })) === 1;

/** What a pending ceremony is for: a registration (by user), a factor (by sign-in challenge or session), a sign-in. */
export type CeremonyKind = 'register' | 'factor' | 'check' | 'login';

const ceremonyKey = (key: Keyspace, kind: CeremonyKind, id: string) => key('webauthn', kind, id);

/** Stores the WebAuthn challenge of a pending ceremony for `ttlMs` (a newer one of the same id replaces it). */
export const saveCeremony = (
  redis: RedisClient,
  key: Keyspace,
  kind: CeremonyKind,
  id: string,
  challenge: string,
  ttlMs: number,
) => redis.set(ceremonyKey(key, kind, id), challenge, 'PX', ttlMs);

/** Takes the WebAuthn challenge of a pending ceremony: its one taker gets it (single use), null when none. */
export const takeCeremony = (redis: RedisClient, key: Keyspace, kind: CeremonyKind, id: string) =>
  redis.getdel(ceremonyKey(key, kind, id));
