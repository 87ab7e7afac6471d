import type { WebhookEndpoint } from '../../entities/webhooks/webhook';
import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { addressPolicyOf } from './addressPolicy';
import type { EndpointProps } from './createEndpoint';
import { checkEndpointUrl } from './resolveTarget';
import { findEndpoint, lockEndpoint } from './store';

/** Edits an endpoint; enabling it again clears its failure streak (a disabled endpoint's deliveries stay failed). */
export async function updateEndpoint(
  ctx: TenantContext,
  id: string,
  props: Partial<EndpointProps>,
): Promise<WebhookEndpoint> {
  // Another organisation's id is a 404 whatever the body (the URL check comes after).
  if (!(await findEndpoint(ctx.em, id))) throw notFound('Webhook endpoint');
  if (props.url !== undefined) await checkEndpointUrl(props.url, addressPolicyOf(ctx.services.config));
  return ctx.em.transactional(async (em) => {
    const row = await lockEndpoint(em, id);
    if (!row) throw notFound('Webhook endpoint');
    if (props.url !== undefined) row.url = props.url;
    if (props.description !== undefined) row.description = props.description;
    if (props.eventTypes !== undefined) row.eventTypes = [...new Set(props.eventTypes)];
    if (props.enabled !== undefined && props.enabled !== row.enabled) {
      row.enabled = props.enabled;
      row.disabledReason = props.enabled ? null : 'manual';
      row.failingSince = null;
    }
    audit(em, {
      action: 'webhook_endpoint.updated',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'webhook_endpoint',
      targetId: row.id,
      data: { ...props },
    });
    return row;
  });
}
