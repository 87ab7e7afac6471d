import { getDelivery } from '../../domain/webhooks/getDelivery';
import { listDeliveries } from '../../domain/webhooks/listDeliveries';
import { replayDelivery, replayFailedDeliveries } from '../../domain/webhooks/replayDeliveries';
import { sendTestEvent } from '../../domain/webhooks/sendTestEvent';
import { IdParams } from '../http/dtos';
import type { ModuleMount } from '../http/mount';
import { Reply } from '../http/routes';
import { DeliveryFilterQuery, ReplayBody } from './dtos';
import * as docs from './deliveries.docs';
import { TEST_ENDPOINT } from './endpoints.docs';
import { webhookGate } from './endpoints';
import { DeliveryDetailView, DeliveryPageView, DeliveryView, ReplayView } from './views';

const since = (v?: string) => (v ? new Date(v) : undefined);

/** The delivery log, replays and the test event. */
export function deliveryRoutes({ routes }: ModuleMount): void {
  const r = routes('Webhooks');

  r.get(
    '/api/webhooks/deliveries',
    {
      ...webhookGate,
      summary: 'Webhook delivery log',
      description: docs.LIST_DELIVERIES,
      query: DeliveryFilterQuery,
      response: DeliveryPageView,
    },
    async ({ ctx, query }) =>
      DeliveryPageView.from(
        await listDeliveries(ctx, {
          ...query,
          status: query.status,
          since: since(query.since),
          until: since(query.until),
        }),
      ),
  );

  r.get(
    '/api/webhooks/deliveries/:id',
    {
      ...webhookGate,
      summary: 'A webhook delivery with its attempts',
      description: docs.GET_DELIVERY,
      params: IdParams,
      response: DeliveryDetailView,
    },
    async ({ ctx, params }) => DeliveryDetailView.detail(await getDelivery(ctx, params.id)),
  );

  r.post(
    '/api/webhooks/deliveries/:id/replay',
    {
      ...webhookGate,
      summary: 'Replay a webhook delivery',
      description: docs.REPLAY_DELIVERY,
      params: IdParams,
      response: DeliveryView,
      status: 202,
      errors: { 409: '`delivery_pending`: the delivery is still being attempted' },
    },
    async ({ ctx, params }) => new Reply(202, DeliveryView.from(await replayDelivery(ctx, params.id))),
  );

  r.post(
    '/api/webhooks/replay',
    {
      ...webhookGate,
      summary: 'Replay the failed webhook deliveries of a period',
      description: docs.REPLAY_FAILED,
      body: ReplayBody,
      response: ReplayView,
      status: 202,
    },
    async ({ ctx, body }) =>
      new Reply(202, {
        replayed: await replayFailedDeliveries(ctx, {
          endpointId: body.endpointId,
          since: new Date(body.since),
          until: since(body.until),
        }),
      }),
  );

  r.post(
    '/api/webhooks/endpoints/:id/test',
    {
      ...webhookGate,
      summary: 'Send a test event to a webhook endpoint',
      description: TEST_ENDPOINT,
      params: IdParams,
      response: DeliveryView,
      status: 202,
    },
    async ({ ctx, params }) => new Reply(202, DeliveryView.from(await sendTestEvent(ctx, params.id))),
  );
}
