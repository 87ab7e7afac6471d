import { WebhookDelivery } from '../../entities/webhooks/webhook';
import { conflict, notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { offerAttempts } from './fanOutEvents';
import { failedDeliveries, findDelivery, type DeliveryFilter } from './store';

/** At most this many deliveries are replayed by one request (ask again for more). */
export const REPLAY_BATCH = 1000;

/**
 * Sends deliveries again: the same event, the same webhook-id (so a receiver that had it dedupes it), a fresh
 * retry schedule. Each is set pending in the database before its attempt is enqueued, so the reconciliation
 * offers it again if the enqueue is lost. A delivery still pending is left as it is (409 for one asked alone).
 */
async function replay(ctx: TenantContext, rows: WebhookDelivery[]): Promise<number> {
  if (!rows.length) return 0;
  const now = new Date();
  await ctx.em.nativeUpdate(
    WebhookDelivery,
    { id: { $in: rows.map((r) => r.id) }, status: { $ne: 'pending' } },
    { status: 'pending', nextAttemptAt: now, deliveredAt: null },
  );
  await offerAttempts(
    ctx.services,
    rows.map((r) => ({ tenantId: ctx.tenantId, deliveryId: r.id, attempt: r.attempts + 1 })),
  );
  return rows.length;
}

export async function replayDelivery(ctx: TenantContext, id: string): Promise<WebhookDelivery> {
  const row = await findDelivery(ctx.em, ctx.tenantId, id);
  if (!row) throw notFound('Webhook delivery');
  if (row.status === 'pending') throw conflict('delivery_pending', 'The delivery is still being attempted');
  await replay(ctx, [row]);
  row.status = 'pending';
  return row;
}

/** Every failed delivery of the period (and endpoint), at most REPLAY_BATCH. */
export async function replayFailedDeliveries(ctx: TenantContext, filter: DeliveryFilter): Promise<number> {
  return replay(ctx, await failedDeliveries(ctx.em, filter, REPLAY_BATCH));
}
