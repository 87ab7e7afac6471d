import type { WebhookAttempt, WebhookDelivery } from '../../entities/webhooks/webhook';
import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { attemptsOf, findDelivery } from './store';

/** One delivery of the organisation with its attempts (404 for another's). */
export async function getDelivery(
  ctx: TenantContext,
  id: string,
): Promise<{ delivery: WebhookDelivery; attempts: WebhookAttempt[] }> {
  const delivery = await findDelivery(ctx.em, ctx.tenantId, id);
  if (!delivery) throw notFound('Webhook delivery');
  return { delivery, attempts: await attemptsOf(ctx.em, id) };
}
