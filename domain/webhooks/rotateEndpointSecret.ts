import type { WebhookEndpoint } from '../../entities/webhooks/webhook';
import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { sealSecret } from './secrets';
import { newSigningSecret } from './signature';
import { lockEndpoint } from './store';

/**
 * Gives the endpoint a new signing secret (returned this once). The current one becomes the previous one and
 * keeps signing beside it for WEBHOOK_SECRET_GRACE_HOURS, so the receiver can switch without losing a delivery;
 * a secret older than that (a second rotation within the period) stops at once.
 */
export async function rotateEndpointSecret(
  ctx: TenantContext,
  id: string,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const secret = newSigningSecret();
  const endpoint = await ctx.em.transactional(async (em) => {
    const row = await lockEndpoint(em, id);
    if (!row) throw notFound('Webhook endpoint');
    row.previousSecretSealed = row.secretSealed;
    row.previousSecretExpiresAt = new Date(Date.now() + ctx.services.config.WEBHOOK_SECRET_GRACE_HOURS * 3600_000);
    row.secretSealed = sealSecret(ctx.services, secret);
    audit(em, {
      action: 'webhook_endpoint.secret_rotated',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'webhook_endpoint',
      targetId: row.id,
      data: { previousSecretExpiresAt: row.previousSecretExpiresAt.toISOString() },
    });
    return row;
  });
  return { endpoint, secret };
}
