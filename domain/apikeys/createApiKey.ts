import { ApiKey, type ApiKeyModule, type ApiKeyScope } from '../../entities/apikeys/apiKey';
import { audit } from '../identity/audit';
import type { TenantContext } from '../context';
import { generateApiKey } from './keyFormat';

export interface CreateApiKeyProps {
  module: ApiKeyModule;
  label: string;
  /** `write` also grants `read`. */
  scope: ApiKeyScope;
}

export interface CreatedApiKey {
  apiKey: ApiKey;
  /** The key itself: returned this once, never stored (only its hash is). */
  key: string;
}

/** Issues a key of the organisation for a module's integration surface, created by the acting member. */
export async function createApiKey(ctx: TenantContext, props: CreateApiKeyProps): Promise<CreatedApiKey> {
  const { key, prefix, hash } = generateApiKey(props.module);
  const scopes: ApiKeyScope[] = props.scope === 'write' ? ['read', 'write'] : ['read'];
  const apiKey = await ctx.em.transactional(async (em) => {
    const row = em.create(ApiKey, { tenantId: ctx.tenantId, module: props.module, label: props.label.trim(), scopes, prefix, secretHash: hash, createdBy: ctx.userId!, lastUsedAt: null });
    audit(em, { action: 'api_key.created', actorId: ctx.userId, tenantId: ctx.tenantId, targetType: 'api_key', targetId: row.id, data: { module: props.module, label: row.label, scopes, prefix } });
    return row;
  });
  return { apiKey, key };
}
