import type { RedisClient } from '../../lib/redis';
import type { ApiKeyModule, ApiKeyScope } from '../../entities/apikeys/apiKey';
import { isOwner } from '../identity/members';
import { effectivePermissions, permissionsChannel } from '../identity/permissions';
import { membershipIn } from '../identity/store/memberships';
import type { Orm } from '../../lib/db';
import type { Logger } from '../../lib/logger';
import type { Keyspace } from '../../lib/redis';
import { hashToken } from '../../lib/tokens';
import { parseApiKey } from './keyFormat';
import { effectiveGrant, type Holder } from './keyGrants';
import { keyBySecretHash, recordKeyUse } from './store';

/** Who calls an integration route: a key of an organisation, for one module's surface. */
export interface ApiKeyPrincipal {
  keyId: string;
  tenantId: string;
  module: ApiKeyModule;
  /** The key's scopes its creator still holds the permissions of (domain/apikeys/keyGrants.ts). */
  scopes: ApiKeyScope[];
  /** Knowledge keys: reads unpublished articles (recorded at creation, and the creator still holds knowledge.write). */
  seesUnpublished: boolean;
  /** The member who created the key. */
  createdBy: string;
}

/** Bound of the in-process maps (entries are tiny; a full map simply starts over). */
const MEMO_MAX = 50_000;
/** lastUsedAt is a minute-resolution fact: written at most once a minute per key, across instances. */
const USE_RESOLUTION_MS = 60_000;

interface Memo {
  principal: ApiKeyPrincipal;
  at: number;
}

/**
 * Resolves X-Server-API-Key values. A key is looked up by its SHA-256 (the database never sees the key and
 * the comparison leaks nothing about it), then memoised in process for a few seconds by hash. Deleting a key
 * calls `forget`: the memo entry goes here and, through a pub/sub message, on every other instance, so a
 * deleted key stops working everywhere at once; a reconnect of the subscriber (messages may have been lost)
 * drops the whole memo, and a load that raced a deletion does not keep its result (as PermissionResolver).
 * Each use records lastUsedAt at most once a minute, fire-and-forget: never on the request's critical path.
 *
 * A key acts within its creator's current permissions: each load reads the creator's membership and keeps only
 * the scopes (and the sight of unpublished articles) they still hold the permissions of; a key whose creator
 * left the organisation or may no longer read is refused (null). RBAC changes publish on PermissionResolver's
 * channel: this resolver listens to it too and drops the organisation's memo entries, so a permission taken
 * away from the creator (or their removal) also stops their keys at once on every instance.
 */
export class ApiKeyResolver {
  private readonly memo = new Map<string, Memo>();
  private readonly usedAt = new Map<string, number>();
  /** Bumped by every invalidation; a load only memoises what it read under the current version. */
  private version = 0;
  private readonly channel: string;
  /** PermissionResolver's invalidation channel (domain/identity/permissions.ts): "tenant:user" or "tenant". */
  private readonly permissionsChannel: string;

  constructor(
    private readonly deps: { orm: Orm; redis: RedisClient; key: Keyspace; logger: Logger },
    private readonly memoTtlMs = 5000,
  ) {
    this.channel = deps.key('apikeys', 'deleted');
    this.permissionsChannel = permissionsChannel(deps.key);
  }

  /** Starts listening for deletions made on other instances, and for permission changes of any member. */
  async listen(subscriber: RedisClient): Promise<void> {
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.drop(message);
      else if (channel === this.permissionsChannel) this.dropTenant(message.split(':')[0]);
    });
    subscriber.on('ready', () => this.drop(null));
    await subscriber
      .subscribe(this.channel, this.permissionsChannel)
      .catch((err: Error) =>
        this.deps.logger.warn({ err }, 'api key invalidations unavailable; relying on the memo TTL'),
      );
  }

  /** The key's principal, or null for a malformed, unknown or deleted key, or one whose creator may no longer use it. */
  async resolve(key: string): Promise<ApiKeyPrincipal | null> {
    if (!parseApiKey(key)) return null;
    const hash = hashToken(key);
    const hit = this.memo.get(hash);
    let principal = hit && Date.now() - hit.at < this.memoTtlMs ? hit.principal : null;
    if (!principal) {
      const version = this.version;
      const em = this.deps.orm.em.fork();
      const row = await keyBySecretHash(em, hash);
      if (!row) return null;
      const member = await membershipIn(em, row.tenantId, row.createdBy);
      const creator: Holder | null = member
        ? { owner: isOwner(member), permissions: effectivePermissions(member.roles.getItems()) }
        : null;
      const grant = effectiveGrant(
        { module: row.module, scopes: row.scopes as ApiKeyScope[], seesUnpublished: row.seesUnpublished },
        creator,
      );
      if (!grant.scopes.includes('read')) return null;
      principal = {
        keyId: row.id,
        tenantId: row.tenantId,
        module: row.module,
        scopes: grant.scopes,
        seesUnpublished: grant.seesUnpublished,
        createdBy: row.createdBy,
      };
      if (version === this.version) {
        if (this.memo.size >= MEMO_MAX) this.memo.clear();
        this.memo.set(hash, { principal, at: Date.now() });
      }
    }
    this.recordUse(principal.keyId);
    return principal;
  }

  /**
   * A key was deleted (after the commit): no instance accepts it any more. Should the message not go out
   * (Redis down), other instances still drop it within the memo TTL, or at once when their subscriber reconnects.
   */
  async forget(hash: string): Promise<void> {
    this.drop(hash);
    await this.deps.redis
      .publish(this.channel, hash)
      .catch((err: Error) =>
        this.deps.logger.warn(
          { err: err.message },
          'api key deletion not published; other instances rely on their reconnect and memo TTL',
        ),
      );
  }

  /** Permissions changed in an organisation: what its keys may do is read again. */
  private dropTenant(tenantId: string): void {
    this.version++;
    for (const [hash, memo] of this.memo) if (!tenantId || memo.principal.tenantId === tenantId) this.memo.delete(hash);
  }

  private drop(hash: string | null): void {
    this.version++;
    if (hash === null) this.memo.clear();
    else this.memo.delete(hash);
  }

  /** Writes lastUsedAt when this instance has not for a minute and no other instance took the minute's Redis slot. */
  private recordUse(keyId: string): void {
    const now = Date.now();
    if (now - (this.usedAt.get(keyId) ?? 0) < USE_RESOLUTION_MS) return;
    if (this.usedAt.size >= MEMO_MAX) this.usedAt.clear();
    this.usedAt.set(keyId, now);
    const { redis, key, orm, logger } = this.deps;
    void redis
      .set(key('apikeys', 'used', keyId), '1', 'PX', USE_RESOLUTION_MS, 'NX')
      .then((taken) => (taken ? recordKeyUse(orm.em.fork(), keyId, new Date(now)) : 0))
      .catch((err: Error) => logger.warn({ err: err.message, keyId }, 'api key use not recorded'));
  }
}
