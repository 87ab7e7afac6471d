import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const hubDeliveryStatuses = ['delivered', 'retrying', 'failed', 'skipped'] as const;
export type HubDeliveryStatus = (typeof hubDeliveryStatuses)[number];

/**
 * The outcome of one outbound notification to the real-time hub (id = the notification's id), written by
 * the worker at every attempt: platform administrators see each delivery, its attempts and its last error
 * (GET /admin/deliveries/hub). Platform-wide (no tenant filter): only administrators read it.
 */
export const HubDelivery = defineEntity({
  name: 'HubDelivery',
  tableName: 'hub_deliveries',
  indexes: [{ properties: ['status', 'id'] }, { properties: ['module', 'id'] }],
  properties: {
    id: p.uuid().primary(),
    tenantId: p.uuid(),
    module: p.string().length(40),
    event: p.string().length(80),
    status: p.enum([...hubDeliveryStatuses]),
    attempts: p.integer(),
    /** HTTP status of the last answer (null: unreachable, or skipped). */
    lastStatus: p.integer().nullable(),
    lastError: p.string().length(1000).nullable(),
    firstAttemptAt: p.datetime(),
    lastAttemptAt: p.datetime(),
    deliveredAt: p.datetime().nullable(),
  },
});
export type HubDelivery = InferEntity<typeof HubDelivery>;
