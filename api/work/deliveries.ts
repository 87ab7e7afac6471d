import type { ModuleMount } from '../http/mount';
import { IdParams } from '../http/dtos';
import { deliverySummary, findGithubDelivery, listChatDeliveries, listGithubDeliveries, listHubDeliveries } from '../../domain/notifications/listDeliveries';
import { AdminChatDeliveriesQuery, AdminGithubDeliveriesQuery, AdminHubDeliveriesQuery, DeliverySummaryQuery } from './dtos';
import { ChatDeliveryPageView, DeliverySummaryView, GithubDeliveryDetailView, GithubDeliveryPageView, HubDeliveryPageView } from './deliveryViews';

/**
 * /admin/deliveries: every inbound webhook delivery and outbound hub notification with its outcome, for
 * platform administrators. Jobs still queued or failed are also in the queue dashboard (/admin/queues).
 */
export function deliveryRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Deliveries');

  r.get(
    '/admin/deliveries',
    { access: 'admin', summary: 'Deliveries by source and outcome', description: 'Counts of the last `hours` (default 24): inbound github, stripe and chat deliveries, outbound hub notifications per module (`hub.<module>`), by status.', query: DeliverySummaryQuery, response: DeliverySummaryView },
    async ({ query }) => DeliverySummaryView.from(query.hours, await deliverySummary(services, query.hours)),
  );

  r.get(
    '/admin/deliveries/github',
    { access: 'admin', summary: 'GitHub webhook deliveries', description: 'Every stored delivery (valid signature) of every organisation, newest first, with its outcome: pending, applied, stale (older than the state already applied), ignored (event not handled or no linked item), failed (attempts exhausted, with the error). Filters tenantId and status. Processed deliveries are deleted after DELIVERY_RETENTION_DAYS (30 by default); pending ones stay.', query: AdminGithubDeliveriesQuery, response: GithubDeliveryPageView },
    async ({ query }) => GithubDeliveryPageView.from(await listGithubDeliveries(services, query)),
  );

  r.get(
    '/admin/deliveries/github/:id',
    { access: 'admin', summary: 'A GitHub webhook delivery with its payload', params: IdParams, response: GithubDeliveryDetailView },
    async ({ params }) => GithubDeliveryDetailView.detail(await findGithubDelivery(services, params.id)),
  );

  r.get(
    '/admin/deliveries/chat',
    { access: 'admin', summary: 'Chat integration deliveries', description: 'Messages third-party tools posted with an integration token, newest first (the text itself is not shown, only its length). Refused tokens store nothing.', query: AdminChatDeliveriesQuery, response: ChatDeliveryPageView },
    async ({ query }) => ChatDeliveryPageView.from(await listChatDeliveries(services, query)),
  );

  r.get(
    '/admin/deliveries/hub',
    { access: 'admin', summary: 'Outbound hub notifications', description: "Every notification a worker tried to deliver to <HUB_URL>/<module>/notify, newest first, with its attempts and outcome: delivered, retrying, failed (dropped after its attempts or a final 4xx; the hub polls), skipped (the module's secret is unset). Filters tenantId, module, status. Kept DELIVERY_RETENTION_DAYS (30 by default).", query: AdminHubDeliveriesQuery, response: HubDeliveryPageView },
    async ({ query }) => HubDeliveryPageView.from(await listHubDeliveries(services, query)),
  );
}
