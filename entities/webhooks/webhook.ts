import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

/** Why an endpoint was disabled: by a member (`manual`) or by the worker after sustained failure (`failing`). */
export const webhookDisabledReasons = ['manual', 'failing'] as const;
export type WebhookDisabledReason = (typeof webhookDisabledReasons)[number];

/**
 * A customer's endpoint: where the organisation's events are POSTed, signed per the Standard Webhooks
 * specification. The signing secret is stored sealed (the signature needs it in clear); after a rotation the
 * previous one keeps signing beside the new one until `previousSecretExpiresAt`. `failingSince` is the first
 * failed attempt of the current failure streak (null after a success): past WEBHOOK_DISABLE_AFTER_HOURS the
 * worker disables the endpoint and mails the organisation's admins.
 */
export const WebhookEndpoint = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'id'] }],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    url: p.string().length(2000),
    description: p.string().length(500).default(''),
    /** Event types delivered; an empty list means every type. */
    eventTypes: p.array().columnType('text[]'),
    enabled: p.boolean().default(true),
    disabledReason: p.enum([...webhookDisabledReasons]).nullable(),
    secretSealed: p.text().hidden(),
    previousSecretSealed: p.text().nullable(),
    previousSecretExpiresAt: p.datetime().nullable(),
    failingSince: p.datetime().nullable(),
  },
});
export type WebhookEndpoint = InferEntity<typeof WebhookEndpoint>;

/**
 * An event of the organisation, written by emitEvent in the transaction of the change (the outbox): a rolled-back
 * change leaves none, a committed one always has one. `fannedOutAt` is set once a delivery row exists for every
 * endpoint subscribed at that time (domain/webhooks/fanOutEvents.ts). The id is the webhook-id of its deliveries.
 */
export const WebhookEvent = defineEntity({
  name: 'WebhookEvent',
  tableName: 'webhook_events',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'id'] }],
  properties: {
    ...tenantColumns(),
    type: p.string().length(100),
    /** What changed, e.g. `customer:<id>`: deliveries of one resource to one endpoint are made in order. */
    resource: p.string().length(200),
    payload: p.json<Record<string, unknown>>(),
    fannedOutAt: p.datetime().nullable(),
  },
});
export type WebhookEvent = InferEntity<typeof WebhookEvent>;

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/** One event to one endpoint: pending until a 2xx answer (delivered) or the retries are used up (failed). */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  filters: tenantFilter,
  indexes: [
    { properties: ['tenantId', 'createdAt'] },
    { properties: ['endpointId', 'resource', 'eventId'] },
    { properties: ['status', 'nextAttemptAt'] },
    { properties: ['eventId'] },
  ],
  uniques: [{ properties: ['endpointId', 'eventId'] }],
  properties: {
    ...tenantColumns(),
    endpointId: p.uuid(),
    eventId: p.uuid(),
    eventType: p.string().length(100),
    resource: p.string().length(200),
    status: p.enum([...webhookDeliveryStatuses]),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime().nullable(),
    lastAttemptAt: p.datetime().nullable(),
    lastHttpStatus: p.integer().nullable(),
    deliveredAt: p.datetime().nullable(),
  },
});
export type WebhookDelivery = InferEntity<typeof WebhookDelivery>;

/** One HTTP attempt of a delivery, as the log shows it. */
export const WebhookAttempt = defineEntity({
  name: 'WebhookAttempt',
  tableName: 'webhook_attempts',
  filters: tenantFilter,
  indexes: [{ properties: ['deliveryId', 'createdAt'] }],
  properties: {
    ...tenantColumns(),
    deliveryId: p.uuid(),
    /** HTTP status of the answer; null when none came (refused address, timeout, connection error). */
    httpStatus: p.integer().nullable(),
    durationMs: p.integer(),
    /** The first WEBHOOK_RESPONSE_EXCERPT_BYTES of the answer's body. */
    responseExcerpt: p.text().nullable(),
    error: p.string().length(500).nullable(),
  },
});
export type WebhookAttempt = InferEntity<typeof WebhookAttempt>;

export const webhookEntities = [WebhookEndpoint, WebhookEvent, WebhookDelivery, WebhookAttempt];
