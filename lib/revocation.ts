import type { Redis } from 'ioredis';
import type { Keyspace } from './redis';
import type { AccessClaims } from './tokens';

/**
 * The shared revocation list every dyno checks on every request. Entries expire with the longest-lived
 * access token they can concern, so the list stays small:
 *   jti      one access token (log-out)
 *   sid      every token of one session (session ended, refresh-token reuse)
 *   nbf      tokens of a user issued before a time (log out everywhere, password reset, account disabled)
 *   member   a user's tokens for one organisation (removed from it)
 */
export class RevocationStore {
  constructor(
    private readonly redis: Redis,
    private readonly key: Keyspace,
    private readonly accessTtlSeconds: number,
  ) {}

  /** One round trip for the four checks. */
  async isRevoked(c: Pick<AccessClaims, 'jti' | 'sid' | 'userId' | 'tenantId' | 'iat'>): Promise<boolean> {
    const [jti, sid, nbf, member] = await this.redis.mget(
      this.key('rv', 'jti', c.jti),
      this.key('rv', 'sid', c.sid),
      this.key('rv', 'nbf', c.userId),
      this.key('rv', 'member', c.tenantId, c.userId),
    );
    if (jti || sid) return true;
    const issuedMs = issuedAtMs(c);
    return [nbf, member].some((notBefore) => notBefore !== null && issuedMs <= Number(notBefore));
  }

  async revokeToken(c: Pick<AccessClaims, 'jti' | 'exp'>): Promise<void> {
    const ttl = c.exp - Math.floor(Date.now() / 1000);
    if (ttl > 0) await this.redis.set(this.key('rv', 'jti', c.jti), '1', 'EX', ttl);
  }

  async revokeSession(sid: string): Promise<void> {
    await this.redis.set(this.key('rv', 'sid', sid), '1', 'EX', this.accessTtlSeconds);
  }

  /** Every token of the user issued up to now stops working. */
  async revokeUser(userId: string): Promise<void> {
    await this.redis.set(this.key('rv', 'nbf', userId), String(Date.now()), 'EX', this.accessTtlSeconds);
  }

  async revokeMembership(tenantId: string, userId: string): Promise<void> {
    await this.redis.set(this.key('rv', 'member', tenantId, userId), String(Date.now()), 'EX', this.accessTtlSeconds);
  }
}

/**
 * Issue time in milliseconds. `iat` has one-second resolution, which would also revoke a token issued right
 * after the revocation (a log-in just after a password reset); the jti is a UUIDv7 whose first 48 bits are
 * the issue time in ms.
 */
function issuedAtMs(c: Pick<AccessClaims, 'jti' | 'iat'>): number {
  const ms = parseInt(c.jti.replace(/-/g, '').slice(0, 12), 16);
  return Number.isFinite(ms) && Math.abs(ms - c.iat * 1000) < 1000 ? ms : c.iat * 1000;
}
