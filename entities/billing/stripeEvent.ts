import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const stripeEventOutcomes = ['applied', 'stale', 'ignored'] as const;
export type StripeEventOutcome = (typeof stripeEventOutcomes)[number];

/**
 * A verified webhook delivery from Stripe, stored by its event id before it is processed, so a replay is
 * recognised and processing is retried from the stored payload.
 */
export const StripeEvent = defineEntity({
  name: 'StripeEvent',
  tableName: 'stripe_events',
  indexes: [
    { properties: ['tenantId', 'created'] },
    // The reconciliation's look-up of stored events not applied yet (domain/billing/redriveStripeEvents.ts).
    {
      name: 'stripe_events_unprocessed_index',
      expression: `create index "stripe_events_unprocessed_index" on "stripe_events" ("received_at") where "processed_at" is null`,
    },
  ],
  properties: {
    id: p.string().length(255).primary(),
    type: p.string().length(100),
    /** The event's own `created` time at Stripe: what ordering compares. */
    created: p.datetime(),
    payload: p.json<Record<string, unknown>>(),
    receivedAt: p.datetime().onCreate(() => new Date()),
    processedAt: p.datetime().nullable(),
    /** Organisation the event was about, once resolved. */
    tenantId: p.uuid().nullable(),
    outcome: p.enum([...stripeEventOutcomes]).nullable(),
  },
});
export type StripeEvent = InferEntity<typeof StripeEvent>;
