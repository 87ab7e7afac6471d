import type { ModuleMount } from '../http/mount';
import { IdParams } from '../http/dtos';
import { deliverySummary } from '../../domain/notifications/deliverySummary';
import { listChatDeliveries } from '../../domain/notifications/listChatDeliveries';
import { listGithubDeliveries } from '../../domain/notifications/listGithubDeliveries';
import { listHubDeliveries } from '../../domain/notifications/listHubDeliveries';
import { findGithubDelivery } from '../../domain/notifications/store';
import {
  AdminChatDeliveriesQuery,
  AdminGithubDeliveriesQuery,
  AdminHubDeliveriesQuery,
  DeliverySummaryQuery,
} from './dtos';
import {
  ChatDeliveryPageView,
  DeliverySummaryView,
  GithubDeliveryDetailView,
  GithubDeliveryPageView,
  HubDeliveryPageView,
} from './deliveryViews';
import * as docs from './deliveries.docs';

/**
 * /admin/deliveries: every inbound webhook delivery and outbound hub notification with its outcome, for
 * platform administrators. Jobs still queued or failed are also in the queue dashboard (/admin/queues).
 */
export function deliveryRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Deliveries');

  r.get(
    '/admin/deliveries',
    {
      access: 'admin',
      summary: 'Deliveries by source and outcome',
      description: docs.deliveriesSourceOutcome,
      query: DeliverySummaryQuery,
      response: DeliverySummaryView,
    },
    async ({ query }) => DeliverySummaryView.from(query.hours, await deliverySummary(services, query.hours)),
  );

  r.get(
    '/admin/deliveries/github',
    {
      access: 'admin',
      summary: 'GitHub webhook deliveries',
      description: docs.githubWebhookDeliveries,
      query: AdminGithubDeliveriesQuery,
      response: GithubDeliveryPageView,
    },
    async ({ query }) => GithubDeliveryPageView.from(await listGithubDeliveries(services, query)),
  );

  r.get(
    '/admin/deliveries/github/:id',
    {
      access: 'admin',
      summary: 'A GitHub webhook delivery with its payload',
      params: IdParams,
      response: GithubDeliveryDetailView,
    },
    async ({ params }) => GithubDeliveryDetailView.detail(await findGithubDelivery(services, params.id)),
  );

  r.get(
    '/admin/deliveries/chat',
    {
      access: 'admin',
      summary: 'Chat integration deliveries',
      description: docs.chatIntegrationDeliveries,
      query: AdminChatDeliveriesQuery,
      response: ChatDeliveryPageView,
    },
    async ({ query }) => ChatDeliveryPageView.from(await listChatDeliveries(services, query)),
  );

  r.get(
    '/admin/deliveries/hub',
    {
      access: 'admin',
      summary: 'Outbound hub notifications',
      description: docs.outboundHubNotifications,
      query: AdminHubDeliveriesQuery,
      response: HubDeliveryPageView,
    },
    async ({ query }) => HubDeliveryPageView.from(await listHubDeliveries(services, query)),
  );
}
