import { ApiKey, type ApiKeyModule } from '../../entities/apikeys/apiKey';
import { notFound } from '../../lib/errors';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';

/**
 * Deletes a key of the organisation's module surface (404 for another organisation's or module's key).
 * Once committed, every instance forgets it at once (ApiKeyResolver.forget): the next call with it is a 401.
 */
export async function deleteApiKey(ctx: TenantContext, props: { module: ApiKeyModule; id: string }): Promise<void> {
  const hash = await ctx.em.transactional(async (em) => {
    const row = await em.findOne(ApiKey, { id: props.id, module: props.module });
    if (!row) throw notFound('API key');
    audit(em, {
      action: 'api_key.deleted',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'api_key',
      targetId: row.id,
      data: { module: row.module, label: row.label, prefix: row.prefix },
    });
    em.remove(row);
    return row.secretHash;
  });
  await ctx.services.apiKeys.forget(hash);
}
