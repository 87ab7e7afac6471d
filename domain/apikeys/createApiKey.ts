import { ApiKey, type ApiKeyModule, type ApiKeyScope } from '../../entities/apikeys/apiKey';
import { audit } from '../platform/audit';
import { loadGrantor, requireHeld } from '../identity/grants';
import type { TenantContext } from '../context';
import { generateApiKey } from './keyFormat';
import { holds, neededFor, UNPUBLISHED_PERMISSION } from './keyGrants';

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

/**
 * Issues a key of the organisation for a module's integration surface, created by the acting member. The key
 * never does more than its creator (domain/apikeys/keyGrants.ts): a scope needing a permission the creator does
 * not hold is 403 `permission_escalation` (the rule of domain/identity/grants.ts), and a knowledge key reads
 * unpublished articles only when its creator may (knowledge.write).
 */
export async function createApiKey(ctx: TenantContext, props: CreateApiKeyProps): Promise<CreatedApiKey> {
  const { key, prefix, hash } = generateApiKey(props.module);
  const scopes: ApiKeyScope[] = props.scope === 'write' ? ['read', 'write'] : ['read'];
  const apiKey = await ctx.em.transactional(async (em) => {
    // Read in the transaction, not from the permission cache: a permission taken away just before counts.
    const creator = await loadGrantor(em, ctx.userId!);
    requireHeld(
      creator,
      neededFor(props.module, props.scope),
      `A ${props.scope} key of the ${props.module} integration surface`,
    );
    const seesUnpublished = props.module === 'knowledge' && holds(creator, [UNPUBLISHED_PERMISSION]);
    const row = em.create(ApiKey, {
      tenantId: ctx.tenantId,
      module: props.module,
      label: props.label.trim(),
      scopes,
      seesUnpublished,
      prefix,
      secretHash: hash,
      createdBy: ctx.userId!,
      lastUsedAt: null,
    });
    audit(em, {
      action: 'api_key.created',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'api_key',
      targetId: row.id,
      data: { module: props.module, label: row.label, scopes, seesUnpublished, prefix },
    });
    return row;
  });
  return { apiKey, key };
}
