import type { WebhookEndpoint } from '../../entities/webhooks/webhook';
import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { findEndpoint } from './store';

/** One endpoint of the organisation (404 for another's). */
export async function getEndpoint(ctx: TenantContext, id: string): Promise<WebhookEndpoint> {
  const row = await findEndpoint(ctx.em, id);
  if (!row) throw notFound('Webhook endpoint');
  return row;
}
