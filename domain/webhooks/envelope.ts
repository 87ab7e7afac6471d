import type { WebhookEvent } from '../../entities/webhooks/webhook';
import { webhookEventTypes, type WebhookEventType } from './eventTypes';

/**
 * The body of a delivery: `{ id, type, version, timestamp, data }`, the same bytes at every attempt (the
 * signature covers them). Over `maxBytes` the data is cut to `{ truncated: true, resource }`.
 */
export function envelopeOf(
  event: Pick<WebhookEvent, 'id' | 'type' | 'resource' | 'payload' | 'createdAt'>,
  maxBytes: number,
): string {
  const version = webhookEventTypes[event.type as WebhookEventType]?.version ?? 1;
  const head = { id: event.id, type: event.type, version, timestamp: event.createdAt.toISOString() };
  const full = JSON.stringify({ ...head, data: event.payload });
  if (Buffer.byteLength(full) <= maxBytes) return full;
  return JSON.stringify({ ...head, data: { truncated: true, resource: event.resource } });
}
