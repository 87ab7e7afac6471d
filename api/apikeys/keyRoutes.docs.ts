import type { ApiKeyModule } from '../../entities/apikeys/apiKey';
import { prose } from '../http/docs';

/** Descriptions of the key routes of one module's surface (`surface`, e.g. /api/public/knowledge). */

/** GET the keys */
export const listKeysDescription = (surface: string) => prose`
  The organisation's keys for ${surface}, oldest first, with their label, scope, visible prefix and last use. The keys
  themselves are never shown again after their creation.
`;

/** POST a key; `scopes` says what each scope needs, e.g. "read: knowledge.read; write: ...". */
export function createKeyDescription(module: ApiKeyModule, surface: string, scopes: string): string {
  const unpublished =
    module === 'knowledge'
      ? ', and the key reads unpublished articles only when its creator holds knowledge.write'
      : '';
  return prose`
    A key of the organisation for ${surface}, sent as X-Server-API-Key. The answer holds the key itself, this once
    (only its SHA-256 is stored; lists show its prefix). Scope \`read\` allows GET routes; \`write\` also allows
    mutations. A key never does more than its creator: a scope needing a permission the caller does not hold
    (${scopes}) is a 403 \`permission_escalation\`${unpublished}. The key works while the organisation is entitled to
    the ${module} module and its creator is a member still holding these permissions (checked at every call: a
    creator who leaves or loses the permission to read stops it, one who loses the permission to write keeps it
    reading), until it is deleted.
  `;
}

/** DELETE a key */
export const DELETE_KEY = prose`
  The key stops working at once on every instance (401 \`api_key_invalid\`). Another organisation's or module's key is a
  404.
`;
