import type { RedisClient } from './redis';
import type { RevocationKind } from '../entities/identity/revocation';
import type { Orm } from './db';
import { DependencyUnavailableError } from './dependencies';
import type { Logger } from './logger';
import type { Keyspace } from './redis';
import type { AccessClaims } from './tokens';

/** One revocation: tokens it concerns stop working on every dyno. Times in ms since the epoch. */
export interface Revocation {
  kind: RevocationKind;
  /** The jti, the session id, the user id, or "<tenantId>:<userId>". */
  subject: string;
  /** user, member: tokens issued up to this instant; jti, sid: when it was revoked (every such token). */
  notBefore: number;
  /** Past this, no token it concerns can still be valid. */
  expiresAt: number;
}

export type RevokedClaims = Pick<AccessClaims, 'jti' | 'sid' | 'userId' | 'tenantId' | 'iat'>;

/** Whether a revocation concerns a token with these claims. */
export function concerns(r: Pick<Revocation, 'kind' | 'subject' | 'notBefore'>, c: RevokedClaims): boolean {
  switch (r.kind) {
    case 'jti':
      return r.subject === c.jti;
    case 'sid':
      return r.subject === c.sid;
    case 'user':
      return r.subject === c.userId && issuedAtMs(c) <= r.notBefore;
    case 'member':
      return r.subject === `${c.tenantId}:${c.userId}` && issuedAtMs(c) <= r.notBefore;
  }
}

/** How long "not revoked" is reused for a token (see RevocationStore), and how many tokens are remembered. */
export const CLEARED_MEMO_MS = 1000;
const CLEARED_MEMO_MAX = 50_000;

const UPSERT = `
with pruned as (delete from token_revocations where expires_at < now())
insert into token_revocations (kind, subject, not_before, expires_at) values (?, ?, ?, ?)
on conflict (kind, subject) do update set
  not_before = greatest(token_revocations.not_before, excluded.not_before),
  expires_at = greatest(token_revocations.expires_at, excluded.expires_at)`;

// KEYS[1] is the warm marker, set to ARGV[1] unless that is empty; KEYS[2..] are entries, each given a
// not-before and a TTL in ms (ARGV[2i], ARGV[2i+1]). An entry already holding a later not-before keeps it,
// so a rebuild that read PostgreSQL before a newer revocation never undoes it.
const WRITE = `
for i = 2, #KEYS do
  local value, ttl = ARGV[2 * i - 2], ARGV[2 * i - 1]
  local current = redis.call('GET', KEYS[i])
  if not current or tonumber(current) < tonumber(value) then redis.call('SET', KEYS[i], value, 'PX', ttl) end
end
if ARGV[1] ~= '' then redis.call('SET', KEYS[1], ARGV[1]) end
return 0`;

const LIVE = `
select kind, subject, (extract(epoch from not_before) * 1000)::float8 as "notBefore", (extract(epoch from expires_at) * 1000)::float8 as "expiresAt"
from token_revocations where expires_at > now()`;

/**
 * The revocation list every dyno checks on every request:
 *   jti      one access token (log-out)
 *   sid      every token of one session (session ended, refresh-token reuse)
 *   user     a user's tokens issued before a time (log out everywhere, password reset, account disabled)
 *   member   a user's tokens for one organisation issued before a time (removed from it)
 *
 * PostgreSQL (token_revocations) is the record; Redis is a cache of its live rows, with a `warm` marker
 * written together with them. A request reads the marker and its four possible entries in ONE round trip.
 * Without the marker (a Redis restarted without persistence, a failover, a flush) the cache is cold: it is
 * rebuilt from PostgreSQL before answering, never read as "nothing is revoked"; if PostgreSQL cannot answer
 * either, the check fails (503). A dyno also refills the cache whenever its Redis connection comes back,
 * which covers a revocation recorded while Redis did not take the write.
 *
 * Each revocation is published on Redis pub/sub: open sockets and in-process memos react at once
 * (`onRevoked`).
 *
 * A token found not revoked is remembered for at most CLEARED_MEMO_MS, so a client's burst of requests
 * makes one round trip a second instead of one per request. Any revocation (made here, or received as an
 * event) drops the whole memo, and the memo is only read while the pub/sub connection is up; the TTL bounds
 * what a lost event could cost. It is the pattern of the permission and entitlement memos.
 */
export class RevocationStore {
  private readonly listeners = new Set<(r: Revocation) => void>();
  private reloading: Promise<Revocation[]> | null = null;
  /** jti -> until when "not revoked" may be reused. */
  private readonly cleared = new Map<string, number>();
  /** Bumped by every revocation: a check that started before one never memoises its answer. */
  private epoch = 0;
  private subscriber: RedisClient | null = null;
  private readonly channel: string;
  private readonly warmKey: string;

  constructor(
    private readonly deps: {
      orm: Orm;
      redis: RedisClient;
      key: Keyspace;
      logger: Logger;
      /** Lifetime of access tokens: how long a session, user or member revocation matters. */
      accessTtlSeconds: number;
    },
  ) {
    this.channel = deps.key('rv', 'events');
    this.warmKey = deps.key('rv', 'warm');
  }

  private entryKey(kind: RevocationKind, subject: string): string {
    // 'nbf' is the name user entries had before PostgreSQL recorded them: those cached then keep working.
    return this.deps.key('rv', kind === 'user' ? 'nbf' : kind, subject);
  }

  /**
   * No round trip for a token cleared within the last second; one in the normal case (a warm cache). `fresh`
   * skips the memo: an open socket checks each (rare, costly) message against the list itself.
   */
  async isRevoked(c: RevokedClaims, { fresh = false } = {}): Promise<boolean> {
    const now = Date.now();
    if (!fresh && (this.cleared.get(c.jti) ?? 0) > now && this.subscriber?.status === 'ready') return false;
    const epoch = this.epoch;
    const revoked = await this.lookUp(c);
    if (!revoked && epoch === this.epoch) {
      if (this.cleared.size >= CLEARED_MEMO_MAX) this.cleared.clear();
      this.cleared.set(c.jti, now + CLEARED_MEMO_MS);
    }
    return revoked;
  }

  private async lookUp(c: RevokedClaims): Promise<boolean> {
    const [warm, jti, sid, user, member] = await this.deps.redis.mget(
      this.warmKey,
      this.entryKey('jti', c.jti),
      this.entryKey('sid', c.sid),
      this.entryKey('user', c.userId),
      this.entryKey('member', `${c.tenantId}:${c.userId}`),
    );
    if (warm === null) return (await this.reload()).some((r) => concerns(r, c));
    if (jti !== null || sid !== null) return true;
    const issued = issuedAtMs(c);
    return [user, member].some((notBefore) => notBefore !== null && issued <= Number(notBefore));
  }

  async revokeToken(c: Pick<AccessClaims, 'jti' | 'exp'>): Promise<void> {
    if (c.exp * 1000 > Date.now()) await this.revoke('jti', c.jti, Date.now(), c.exp * 1000);
  }

  async revokeSession(sid: string): Promise<void> {
    await this.revoke('sid', sid);
  }

  /** Every token of the user issued up to now stops working. */
  async revokeUser(userId: string): Promise<void> {
    await this.revoke('user', userId);
  }

  async revokeMembership(tenantId: string, userId: string): Promise<void> {
    await this.revoke('member', `${tenantId}:${userId}`);
  }

  /** Called with every revocation made by any dyno (through pub/sub), once `listen` has subscribed. */
  onRevoked(listener: (r: Revocation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Subscribes to revocation events, and refills the cache from PostgreSQL each time the command connection
   * reconnects: a write it missed while Redis was away is in PostgreSQL, and a cold cache is rebuilt early.
   */
  async listen(subscriber: RedisClient): Promise<void> {
    const { redis, logger } = this.deps;
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      this.forgetCleared();
      const revocation = JSON.parse(message) as Revocation;
      for (const listener of this.listeners) listener(revocation);
    });
    // Events may have been missed while the connection was down.
    subscriber.on('ready', () => this.forgetCleared());
    let connected = redis.status === 'ready';
    redis.on('ready', () => {
      if (connected)
        void this.reload().catch((err: Error) =>
          logger.warn({ err: err.message }, 'revocation cache not refilled; it is rebuilt when found cold'),
        );
      connected = true;
    });
    await subscriber
      .subscribe(this.channel)
      .catch((err: Error) =>
        logger.warn({ err }, 'revocation events unavailable; sockets rely on their per-message check'),
      );
  }

  /** PostgreSQL first (the record), then the cache and the event. */
  private async revoke(
    kind: RevocationKind,
    subject: string,
    notBefore = Date.now(),
    expiresAt = notBefore + this.deps.accessTtlSeconds * 1000,
  ): Promise<void> {
    const { orm, redis } = this.deps;
    this.forgetCleared();
    await orm.em.getConnection().execute(UPSERT, [kind, subject, new Date(notBefore), new Date(expiresAt)]);
    const revocation: Revocation = { kind, subject, notBefore, expiresAt };
    // Should Redis not take this (it is down), the reconnect refills the cache from PostgreSQL (see listen).
    await redis
      .multi()
      .eval(WRITE, 2, this.warmKey, this.entryKey(kind, subject), '', notBefore, Math.max(1, expiresAt - Date.now()))
      .publish(this.channel, JSON.stringify(revocation))
      .exec();
    // Again: a check that read Redis before the write may have memoised meanwhile.
    this.forgetCleared();
  }

  private forgetCleared(): void {
    this.cleared.clear();
    this.epoch++;
  }

  /**
   * Loads the live revocations from PostgreSQL and writes them to Redis with the warm marker (one MULTI).
   * Concurrent callers share one load. Writing is additive, so it never undoes a revocation made meanwhile.
   */
  private reload(): Promise<Revocation[]> {
    this.reloading ??= this.load().finally(() => (this.reloading = null));
    return this.reloading;
  }

  private async load(): Promise<Revocation[]> {
    const { orm, redis, logger } = this.deps;
    let live: Revocation[];
    try {
      live = await orm.em.getConnection().execute<Revocation[]>(LIVE);
    } catch (err) {
      throw new DependencyUnavailableError('postgresql (revocation list)', err);
    }
    const now = Date.now();
    const entries = live.filter((r) => r.expiresAt > now);
    await redis
      .eval(
        WRITE,
        entries.length + 1,
        this.warmKey,
        ...entries.map((r) => this.entryKey(r.kind, r.subject)),
        String(now),
        ...entries.flatMap((r) => [r.notBefore, Math.ceil(r.expiresAt - now)]),
      )
      .catch((err: Error) => logger.warn({ err: err.message }, 'revocation cache not written; PostgreSQL answered'));
    return live;
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
