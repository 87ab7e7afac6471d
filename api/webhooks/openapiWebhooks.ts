import { envelopeSchema, eventTypeNames, webhookEventTypes } from '../../domain/webhooks/eventTypes';

/**
 * The `webhooks` section of /openapi.json (OpenAPI 3.1): one entry per event type, the POST the suite makes to
 * a customer's endpoint, with its versioned body and the Standard Webhooks headers.
 */
export function webhookDocuments(): Record<string, unknown> {
  const header = (description: string) => ({ in: 'header', required: true, description, schema: { type: 'string' } });
  return Object.fromEntries(
    eventTypeNames.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(/\./g, '_')}`,
          summary: webhookEventTypes[type].summary,
          description: `Version ${webhookEventTypes[type].version}. Verify webhook-signature (HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" with the endpoint's secret, Standard Webhooks) before trusting the body; dedupe on webhook-id. See docs/webhooks.md.`,
          tags: ['Webhooks'],
          security: [],
          parameters: [
            { name: 'webhook-id', ...header('The event id: the same at every attempt and replay') },
            { name: 'webhook-timestamp', ...header('Seconds since the epoch when the attempt was signed') },
            {
              name: 'webhook-signature',
              ...header('`v1,<base64>` signatures, space-separated: two during a secret rotation'),
            },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: envelopeSchema(type) } } },
          responses: {
            '200': {
              description: 'Any 2xx acknowledges the delivery; anything else, or no answer in time, is retried',
            },
          },
        },
      },
    ]),
  );
}
