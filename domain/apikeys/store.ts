import type { Em } from '../../lib/db';
import { lean } from '../../lib/lean';
import { ApiKey } from '../../entities/apikeys/apiKey';

/** Statements of integration API keys. */

/** The key of this secret hash, in any organisation, with what resolving it needs (never its secret). */
export const keyBySecretHash = (em: Em, hash: string) =>
  em.findOne(
    ApiKey,
    { secretHash: hash },
    { filters: { tenant: false }, fields: ['tenantId', 'module', 'scopes', 'seesUnpublished', 'createdBy'] },
  );

/** Records when a key was last used (any organisation: the resolver runs before a tenant is known). */
export const recordKeyUse = (em: Em, keyId: string, at: Date) =>
  em.nativeUpdate(ApiKey, { id: keyId }, { lastUsedAt: at }, { filters: false });

// A lean statement (docs/database-path.md); the index (tenant_id, module, id) serves it. $1 module, $2 cursor, $3 limit.
export const keysPage = lean(ApiKey, {
  where: 'module = $1 and ($2::uuid is null or id > $2)',
  orderBy: 'id asc',
  limitParam: '$3',
});
