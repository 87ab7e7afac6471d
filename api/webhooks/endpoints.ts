import { createEndpoint } from '../../domain/webhooks/createEndpoint';
import { deleteEndpoint } from '../../domain/webhooks/deleteEndpoint';
import { webhookEventTypes, subscribableEventTypes } from '../../domain/webhooks/eventTypes';
import { getEndpoint } from '../../domain/webhooks/getEndpoint';
import { listEndpoints } from '../../domain/webhooks/listEndpoints';
import { rotateEndpointSecret } from '../../domain/webhooks/rotateEndpointSecret';
import { updateEndpoint } from '../../domain/webhooks/updateEndpoint';
import { IdParams, PageQuery } from '../http/dtos';
import type { ModuleMount } from '../http/mount';
import { noContent, Reply } from '../http/routes';
import { CreateEndpointBody, UpdateEndpointBody } from './dtos';
import * as docs from './endpoints.docs';
import { EndpointPageView, EndpointView, EndpointWithSecretView, EventTypeListView } from './views';

/** Who manages an organisation's webhooks: its admins (org.manage). Every organisation has them, whatever its plan. */
export const webhookGate = { access: 'user', permission: 'org.manage' } as const;

const noStore = { 'Cache-Control': 'no-store' };
const URL_REFUSED = '`webhook_url_refused`: not https, a private, loopback or link-local address, or not resolving';

/** /api/webhooks/endpoints: the organisation's endpoints, their secrets and the catalogue of event types. */
export function endpointRoutes({ routes }: ModuleMount): void {
  const r = routes('Webhooks');

  r.get(
    '/api/webhooks/event-types',
    { ...webhookGate, summary: 'Event types', description: docs.EVENT_TYPES, response: EventTypeListView },
    () => ({
      items: subscribableEventTypes.map((type) => ({
        type,
        summary: webhookEventTypes[type].summary,
        version: webhookEventTypes[type].version,
      })),
    }),
  );

  r.get(
    '/api/webhooks/endpoints',
    {
      ...webhookGate,
      summary: 'List webhook endpoints',
      description: docs.LIST_ENDPOINTS,
      query: PageQuery,
      response: EndpointPageView,
    },
    async ({ ctx, query }) => EndpointPageView.from(await listEndpoints(ctx, query)),
  );

  r.post(
    '/api/webhooks/endpoints',
    {
      ...webhookGate,
      summary: 'Add a webhook endpoint',
      description: docs.CREATE_ENDPOINT,
      body: CreateEndpointBody,
      response: EndpointWithSecretView,
      status: 201,
      errors: {
        409: '`webhook_endpoint_limit`: the organisation has WEBHOOK_MAX_ENDPOINTS endpoints',
        422: URL_REFUSED,
      },
    },
    async ({ ctx, body }) =>
      new Reply(201, EndpointWithSecretView.withSecret(await createEndpoint(ctx, body)), noStore),
  );

  r.get(
    '/api/webhooks/endpoints/:id',
    { ...webhookGate, summary: 'A webhook endpoint', params: IdParams, response: EndpointView },
    async ({ ctx, params }) => EndpointView.from(await getEndpoint(ctx, params.id)),
  );

  r.patch(
    '/api/webhooks/endpoints/:id',
    {
      ...webhookGate,
      summary: 'Edit a webhook endpoint',
      description: docs.UPDATE_ENDPOINT,
      params: IdParams,
      body: UpdateEndpointBody,
      response: EndpointView,
      errors: { 422: URL_REFUSED },
    },
    async ({ ctx, params, body }) => EndpointView.from(await updateEndpoint(ctx, params.id, body)),
  );

  r.delete(
    '/api/webhooks/endpoints/:id',
    {
      ...webhookGate,
      summary: 'Delete a webhook endpoint',
      description: docs.DELETE_ENDPOINT,
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await deleteEndpoint(ctx, params.id);
      return noContent();
    },
  );

  r.post(
    '/api/webhooks/endpoints/:id/rotate-secret',
    {
      ...webhookGate,
      summary: "Rotate a webhook endpoint's signing secret",
      description: docs.ROTATE_SECRET,
      params: IdParams,
      response: EndpointWithSecretView,
    },
    async ({ ctx, params }) =>
      new Reply(200, EndpointWithSecretView.withSecret(await rotateEndpointSecret(ctx, params.id)), noStore),
  );
}
