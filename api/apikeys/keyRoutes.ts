import type { Permission } from '../../domain/identity/permissionCatalogue';
import { createApiKey } from '../../domain/apikeys/createApiKey';
import { scopePermissions } from '../../domain/apikeys/keyGrants';
import { deleteApiKey } from '../../domain/apikeys/deleteApiKey';
import { listApiKeys } from '../../domain/apikeys/listApiKeys';
import type { ApiKeyModule } from '../../entities/apikeys/apiKey';
import { IdParams, PageQuery } from '../http/dtos';
import { noContent, Reply, type Routes } from '../http/routes';
import { CreateApiKeyBody } from './dtos';
import { ApiKeyPageView, CreatedApiKeyView } from './views';

export interface KeyRoutesOptions {
  /** Where the routes live, e.g. /api/knowledge/keys. */
  path: string;
  /** The module whose integration surface the keys open (and that the organisation must be entitled to). */
  module: ApiKeyModule;
  /** Who may manage the keys. */
  permission: Permission;
  /** The surface the keys are for, named in the descriptions, e.g. /api/public/knowledge. */
  surface: string;
}

const describeScopes = (module: ApiKeyModule) => Object.entries(scopePermissions[module]).map(([scope, perms]) => `${scope}: ${perms.join(' + ')}`).join('; ');

/**
 * The key management routes of one module's integration surface (JWT + module + permission): list, create
 * (the key is shown once), delete. Knowledge mounts them at /api/knowledge/keys, core at /api/hub/keys.
 */
export function apiKeyRoutes(r: Routes, { path, module, permission, surface }: KeyRoutesOptions): void {
  const gate = { access: 'user', module, permission } as const;

  r.get(
    path,
    {
      ...gate,
      summary: `List the ${module} API keys`,
      description: `The organisation's keys for ${surface}, oldest first, with their label, scope, visible prefix and last use. The keys themselves are never shown again after their creation.`,
      query: PageQuery,
      response: ApiKeyPageView,
    },
    async ({ ctx, query }) => ApiKeyPageView.from(await listApiKeys(ctx, { ...query, module })),
  );

  r.post(
    path,
    {
      ...gate,
      summary: `Create a ${module} API key`,
      description: `A key of the organisation for ${surface}, sent as X-Server-API-Key. The answer holds the key itself, this once (only its SHA-256 is stored; lists show its prefix). Scope \`read\` allows GET routes; \`write\` also allows mutations. A key never does more than its creator: a scope needing a permission the caller does not hold (${describeScopes(module)}) is a 403 \`permission_escalation\`${module === 'knowledge' ? ', and the key reads unpublished articles only when its creator holds knowledge.write' : ''}. The key works while the organisation is entitled to the ${module} module and its creator is a member still holding these permissions (checked at every call: a creator who leaves or loses the permission to read stops it, one who loses the permission to write keeps it reading), until it is deleted.`,
      errors: { 403: '`permission_escalation`: the scope asked needs permissions the caller does not hold' },
      body: CreateApiKeyBody,
      response: CreatedApiKeyView,
      status: 201,
    },
    async ({ ctx, body }) => new Reply(201, CreatedApiKeyView.fromCreated(await createApiKey(ctx, { module, label: body.label, scope: body.scope })), { 'Cache-Control': 'no-store' }),
  );

  r.delete(
    `${path}/:id`,
    {
      ...gate,
      summary: `Delete a ${module} API key`,
      description: 'The key stops working at once on every instance (401 `api_key_invalid`). Another organisation\'s or module\'s key is a 404.',
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await deleteApiKey(ctx, { module, id: params.id });
      return noContent();
    },
  );
}
