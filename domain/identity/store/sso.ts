import type { Em } from '../../../lib/db';
import type { Keyspace, RedisClient } from '../../../lib/redis';
import { Organization } from '../../../entities/identity/organization';
import { SsoDomain, SsoLink, SsoProvider } from '../../../entities/identity/sso';

/** Statements of single sign-on: the organisation's provider, linked subjects, claimed domains, and the attempts in Redis. */

/** The provider of the organisation `em` is bound to, or null. */
export const ssoProviderOf = (em: Em) => em.findOne(SsoProvider, {});

/**
 * The provider of this id with its sealed client secret, in any organisation (a sign-in names no tenant), while its
 * organisation is not suspended; null otherwise.
 */
export async function usableSsoProvider(em: Em, id: string): Promise<SsoProvider | null> {
  const provider = await em.findOne(SsoProvider, { id }, { filters: false });
  if (!provider) return null;
  const org = await em.findOne(Organization, { id: provider.tenantId }, { fields: ['id', 'suspendedAt'] });
  return org && !org.suspendedAt ? provider : null;
}

/** The account linked to this provider subject in the organisation `em` is bound to. */
export const ssoLinkBySubject = (em: Em, issuer: string, subject: string) => em.findOne(SsoLink, { issuer, subject });

/** The link of this account in the organisation `em` is bound to. */
export const ssoLinkOfUser = (em: Em, userId: string) => em.findOne(SsoLink, { userId });

/** The domains the organisation `em` is bound to claims, by name. */
export const ssoDomainsOf = (em: Em) => em.find(SsoDomain, {}, { orderBy: { domain: 'asc' } });

/** The claim of this id in the organisation `em` is bound to. */
export const ssoDomainById = (em: Em, id: string) => em.findOne(SsoDomain, { id });

/** The claim of this domain in the organisation `em` is bound to. */
export const ssoDomainNamed = (em: Em, domain: string) => em.findOne(SsoDomain, { domain });

/** The verified claim of this domain, in whichever organisation holds it (at most one does). */
export const verifiedSsoDomain = (em: Em, domain: string) =>
  em.findOne(SsoDomain, { domain, verifiedAt: { $ne: null } }, { filters: false });

/** Which organisation's provider a verified domain routes to: the provider row, any organisation. */
export const ssoProviderOfTenant = (em: Em, tenantId: string) =>
  em.findOne(SsoProvider, { tenantId }, { filters: false });

/** What a sign-in attempt remembers between the redirect to the provider and its callback. */
export interface SsoAttempt {
  providerId: string;
  /** openid-client's passport state: the PKCE verifier, nonce and state it checks the callback against. */
  checks: Record<string, string | number>;
}

/** What a one-time exchange code stands for: a signed-in account, and the factor step still owed (if any). */
export interface SsoGrant {
  userId: string;
  tenantId: string;
  /** `none`: tokens; `verify`/`enrol`: the organisation requires a second factor the provider did not assert. */
  factor: 'none' | 'verify' | 'enrol';
  providerId: string;
}

const attemptKey = (key: Keyspace, hash: string) => key('sso', 'attempt', hash);
const grantKey = (key: Keyspace, hash: string) => key('sso', 'grant', hash);

export const saveSsoAttempt = (redis: RedisClient, key: Keyspace, hash: string, attempt: SsoAttempt, ttlMs: number) =>
  redis.set(attemptKey(key, hash), JSON.stringify(attempt), 'PX', ttlMs);

/** The attempt of this state hash, used up (single use under races: GETDEL); null when unknown or expired. */
export async function takeSsoAttempt(redis: RedisClient, key: Keyspace, hash: string): Promise<SsoAttempt | null> {
  const raw = await redis.getdel(attemptKey(key, hash));
  return raw ? (JSON.parse(raw) as SsoAttempt) : null;
}

export const saveSsoGrant = (redis: RedisClient, key: Keyspace, hash: string, grant: SsoGrant, ttlMs: number) =>
  redis.set(grantKey(key, hash), JSON.stringify(grant), 'PX', ttlMs);

/** The grant of this code hash, used up; null when unknown, expired or used. */
export async function takeSsoGrant(redis: RedisClient, key: Keyspace, hash: string): Promise<SsoGrant | null> {
  const raw = await redis.getdel(grantKey(key, hash));
  return raw ? (JSON.parse(raw) as SsoGrant) : null;
}
