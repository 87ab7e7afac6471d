import type { ApiKeyModule, ApiKeyScope } from '../../entities/apikeys/apiKey';
import type { Permission } from '../identity/permissionCatalogue';

/**
 * A key is an extension of the member who creates it (as GitHub's fine-grained tokens are): it never does more
 * than its creator could with their own login. Each scope of a module's surface stands for the permissions a
 * member needs for the same calls on the member surface; `write` holds `read`, so it needs both.
 */
export const scopePermissions: Record<ApiKeyModule, Record<ApiKeyScope, readonly Permission[]>> = {
  // /api/public/knowledge mirrors /api/knowledge: GET needs knowledge.read, mutations knowledge.write.
  knowledge: { read: ['knowledge.read'], write: ['knowledge.read', 'knowledge.write'] },
  // /api/public/hub lists customers and import statuses, and imports customers and deals.
  core: { read: ['core.customers.read'], write: ['core.customers.read', 'core.customers.write'] },
};

/** What lets a member see unpublished articles on the member surface (api/knowledge/surface.ts), and a key too. */
export const UNPUBLISHED_PERMISSION: Permission = 'knowledge.write';

/** What a member holds in the organisation: owners hold everything (as domain/identity/grants.ts has it). */
export interface Holder {
  owner: boolean;
  permissions: ReadonlySet<string>;
}

export const holds = (holder: Holder, wanted: Iterable<string>): boolean =>
  holder.owner || [...wanted].every((p) => holder.permissions.has(p));

/** The permissions a key of `module` with `scope` needs its creator to hold. */
export const neededFor = (module: ApiKeyModule, scope: ApiKeyScope): readonly Permission[] =>
  scopePermissions[module][scope];

/**
 * What a key may do now: its scopes and `seesUnpublished`, each kept only while the creator (null: no longer a
 * member) still holds what it needs. No scope left means the key no longer works.
 */
export function effectiveGrant(
  key: { module: ApiKeyModule; scopes: readonly ApiKeyScope[]; seesUnpublished: boolean },
  creator: Holder | null,
): { scopes: ApiKeyScope[]; seesUnpublished: boolean } {
  if (!creator) return { scopes: [], seesUnpublished: false };
  const scopes = key.scopes.filter((scope) => holds(creator, neededFor(key.module, scope)));
  return {
    scopes,
    seesUnpublished:
      key.module === 'knowledge' &&
      key.seesUnpublished &&
      scopes.includes('read') &&
      holds(creator, [UNPUBLISHED_PERMISSION]),
  };
}
