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
import { createKeyDescription, DELETE_KEY, listKeysDescription } from './keyRoutes.docs';

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

const describeScopes = (module: ApiKeyModule) =>
  Object.entries(scopePermissions[module])
    .map(([scope, perms]) => `${scope}: ${perms.join(' + ')}`)
    .join('; ');

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
      description: listKeysDescription(surface),
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
      description: createKeyDescription(module, surface, describeScopes(module)),
      errors: { 403: '`permission_escalation`: the scope asked needs permissions the caller does not hold' },
      body: CreateApiKeyBody,
      response: CreatedApiKeyView,
      status: 201,
    },
    async ({ ctx, body }) =>
      new Reply(
        201,
        CreatedApiKeyView.fromCreated(await createApiKey(ctx, { module, label: body.label, scope: body.scope })),
        { 'Cache-Control': 'no-store' },
      ),
  );

  r.delete(
    `${path}/:id`,
    {
      ...gate,
      summary: `Delete a ${module} API key`,
      description: DELETE_KEY,
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await deleteApiKey(ctx, { module, id: params.id });
      return noContent();
    },
  );
}
