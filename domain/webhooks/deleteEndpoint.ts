import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { deleteEndpointRows, lockEndpoint } from './store';

/** Deletes an endpoint with its delivery log; a delivery of it running now finds it gone and stops. */
export async function deleteEndpoint(ctx: TenantContext, id: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const row = await lockEndpoint(em, id);
    if (!row) throw notFound('Webhook endpoint');
    await deleteEndpointRows(em, id);
    audit(em, {
      action: 'webhook_endpoint.deleted',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'webhook_endpoint',
      targetId: id,
      data: { url: row.url },
    });
  });
}
