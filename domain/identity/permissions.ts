import type { RedisClient } from '../../lib/redis';
import type { Orm } from '../../lib/db';
import type { Logger } from '../../lib/logger';
import type { Keyspace } from '../../lib/redis';
import { isDependencyDown } from '../../lib/dependencies';
import type { Role } from '../../entities/identity/organization';
import { membershipIn } from './store/memberships';

/** Bound of the in-process memo (entries are tiny; a full memo simply starts over). */
const MEMO_MAX = 50_000;
/** How long the shared entry lives, and how long the last permissions read serve during a PostgreSQL outage. */
const CACHE_TTL_SECONDS = 60;
const LAST_KNOWN_TTL_SECONDS = 3600;

/** A member's effective permissions: the union of their roles' permissions (what PermissionResolver caches). */
export function effectivePermissions(roles: readonly Pick<Role, 'permissions'>[]): Set<string> {
  return new Set(roles.flatMap((r) => r.permissions));
}

interface Memo {
  permissions: Set<string>;
  at: number;
}

/** The pub/sub channel on which every permission change is announced ("tenant:user" or "tenant"). */
export const permissionsChannel = (key: Keyspace) => key('perms', 'invalidated');

/**
 * A member's effective permissions in an organisation (union of their roles), cached in Redis for a minute
 * in one hash per organisation, and for a few seconds in process (permission-guarded routes include the
 * headsets' hot ones). RBAC changes call `invalidate`: the Redis entry goes and every dyno drops its memo
 * on a pub/sub message, so a removed permission stops working at once. A load that raced an invalidation
 * does not keep its result.
 *
 * A second hash keeps the last permissions read from PostgreSQL for LAST_KNOWN_TTL_SECONDS, for its outages only: no
 * RBAC change can commit while PostgreSQL is down, and every change deletes both hashes, so what it holds is
 * still true. Routes that need Redis only (the telemetry intake) keep serving a member whose minute-long entry
 * expired during the outage.
 */
export class PermissionResolver {
  private readonly memo = new Map<string, Memo>();
  /** Bumped by every invalidation; a load only memoises what it read under the current version. */
  private version = 0;
  private readonly channel: string;
  private readonly listeners = new Set<(scope: string) => void>();

  constructor(
    private readonly orm: Orm,
    private readonly redis: RedisClient,
    private readonly key: Keyspace,
    private readonly memoTtlMs = 5000,
  ) {
    this.channel = permissionsChannel(key);
  }

  /** Starts listening for invalidations made by other dyno processes. */
  async listen(subscriber: RedisClient, logger: Logger): Promise<void> {
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      this.forget(message);
      for (const listener of this.listeners) listener(message);
    });
    subscriber.on('ready', () => this.forget(''));
    await subscriber
      .subscribe(this.channel)
      .catch((err: Error) => logger.warn({ err }, 'permission invalidations unavailable; relying on the memo TTL'));
  }

  /**
   * Called after permissions changed on any dyno, once this process has dropped what it held: the scope is
   * "tenant:user" (a member's roles) or "tenant" (a role of the organisation). Open sockets re-check (api/ws.ts).
   */
  onInvalidated(listener: (scope: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async of(tenantId: string, userId: string): Promise<Set<string>> {
    const memoKey = `${tenantId}:${userId}`;
    const hit = this.memo.get(memoKey);
    if (hit && Date.now() - hit.at < this.memoTtlMs) return hit.permissions;
    const version = this.version;
    const hash = this.key('perms', tenantId);
    const cached = await this.redis.hget(hash, userId);
    let permissions: Set<string>;
    if (cached !== null) {
      permissions = new Set(JSON.parse(cached) as string[]);
    } else {
      const lastKnown = this.key('perms', 'last', tenantId);
      let fresh: boolean = true;
      permissions = await this.load(tenantId, userId).catch(async (err: unknown) => {
        const last = isDependencyDown(err) ? await this.redis.hget(lastKnown, userId) : null;
        if (last === null) throw err;
        fresh = false;
        return new Set(JSON.parse(last) as string[]);
      });
      if (fresh) {
        const json = JSON.stringify([...permissions]);
        await this.redis
          .multi()
          .hset(hash, userId, json)
          .expire(hash, CACHE_TTL_SECONDS)
          .hset(lastKnown, userId, json)
          .expire(lastKnown, LAST_KNOWN_TTL_SECONDS)
          .exec();
      }
    }
    if (version === this.version) {
      if (this.memo.size >= MEMO_MAX) this.memo.clear();
      this.memo.set(memoKey, { permissions, at: Date.now() });
    }
    return permissions;
  }

  private async load(tenantId: string, userId: string): Promise<Set<string>> {
    const membership = await membershipIn(this.orm.em.fork(), tenantId, userId);
    return effectivePermissions(membership?.roles.getItems() ?? []);
  }

  /** Forget one member's permissions, or the whole organisation's when a role changed. */
  async invalidate(tenantId: string, userId?: string): Promise<void> {
    const scope = userId ? `${tenantId}:${userId}` : tenantId;
    this.forget(scope);
    const hashes = [this.key('perms', tenantId), this.key('perms', 'last', tenantId)];
    await (userId
      ? this.redis.multi().hdel(hashes[0], userId).hdel(hashes[1], userId).exec()
      : this.redis.del(...hashes));
    await this.redis.publish(this.channel, scope);
  }

  /** Drops memo entries of a member ("tenant:user"), an organisation ("tenant") or all (""). */
  private forget(scope: string): void {
    this.version++;
    for (const key of this.memo.keys()) if (key === scope || key.startsWith(scope)) this.memo.delete(key);
  }
}
