import type { WebhookDelivery } from '../../entities/webhooks/webhook';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { deliveriesPage, type DeliveryFilter } from './store';

/** The organisation's delivery log, newest first, filtered. */
export async function listDeliveries(
  ctx: TenantContext,
  props: PageProps & DeliveryFilter,
): Promise<Page<WebhookDelivery>> {
  return toPage(await deliveriesPage(ctx.em, props, props.limit + 1, props.cursor), props.limit);
}
