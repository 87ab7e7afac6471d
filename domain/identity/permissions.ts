import type { Redis } from 'ioredis';
import type { Orm } from '../../lib/db';
import type { Keyspace } from '../../lib/redis';
import { Membership } from '../../entities/identity/organization';

/**
 * A member's effective permissions in an organisation (union of their roles), cached in Redis for a minute
 * in one hash per organisation. RBAC changes call `invalidate`, so a removed permission stops working at once.
 */
export class PermissionResolver {
  constructor(
    private readonly orm: Orm,
    private readonly redis: Redis,
    private readonly key: Keyspace,
  ) {}

  async of(tenantId: string, userId: string): Promise<Set<string>> {
    const hash = this.key('perms', tenantId);
    const cached = await this.redis.hget(hash, userId);
    if (cached !== null) return new Set(JSON.parse(cached) as string[]);
    const membership = await this.orm.em.fork().findOne(Membership, { tenantId, user: userId }, { populate: ['roles'], filters: { tenant: false } });
    const permissions = [...new Set(membership?.roles.getItems().flatMap((r) => r.permissions) ?? [])];
    await this.redis.multi().hset(hash, userId, JSON.stringify(permissions)).expire(hash, 60).exec();
    return new Set(permissions);
  }

  /** Forget one member's permissions, or the whole organisation's when a role changed. */
  async invalidate(tenantId: string, userId?: string): Promise<void> {
    const hash = this.key('perms', tenantId);
    await (userId ? this.redis.hdel(hash, userId) : this.redis.del(hash));
  }
}
