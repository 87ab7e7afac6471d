import { WebhookEndpoint } from '../../entities/webhooks/webhook';
import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { addressPolicyOf } from './addressPolicy';
import type { WebhookEventType } from './eventTypes';
import { checkEndpointUrl } from './resolveTarget';
import { sealSecret } from './secrets';
import { newSigningSecret } from './signature';
import { countEndpoints } from './store';

export interface EndpointProps {
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
  enabled: boolean;
}

/** Adds an endpoint of the organisation; its signing secret is returned this once (stored sealed). */
export async function createEndpoint(
  ctx: TenantContext,
  props: EndpointProps,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const { config } = ctx.services;
  await checkEndpointUrl(props.url, addressPolicyOf(config));
  const secret = newSigningSecret();
  const endpoint = await ctx.em.transactional(async (em) => {
    // Serialises the organisation's creations, so the limit holds under concurrent requests.
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`webhook-endpoints:${ctx.tenantId}`]);
    if ((await countEndpoints(em)) >= config.WEBHOOK_MAX_ENDPOINTS)
      throw conflict(
        'webhook_endpoint_limit',
        `An organisation has at most ${config.WEBHOOK_MAX_ENDPOINTS} webhook endpoints (WEBHOOK_MAX_ENDPOINTS)`,
      );
    const row = em.create(WebhookEndpoint, {
      tenantId: ctx.tenantId,
      url: props.url,
      description: props.description,
      eventTypes: [...new Set(props.eventTypes)],
      enabled: props.enabled,
      disabledReason: props.enabled ? null : 'manual',
      secretSealed: sealSecret(ctx.services, secret),
      previousSecretExpiresAt: null,
      failingSince: null,
    });
    audit(em, {
      action: 'webhook_endpoint.created',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'webhook_endpoint',
      targetId: row.id,
      data: { url: row.url, eventTypes: row.eventTypes },
    });
    return row;
  });
  return { endpoint, secret };
}
