import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, updatedAt } from '../base';

/** What a tier grants: modules, and numeric limits (cloudQuotaBytes, seats, ...). */
export interface TierEntitlements {
  modules: string[];
  limits: Record<string, number>;
}

/** A tier of the catalogue (free, starter, pro, business, enterprise), seeded by migration. */
export const Plan = defineEntity({
  name: 'Plan',
  tableName: 'plans',
  properties: {
    tier: p.string().length(40).primary(),
    name: p.string().length(80),
    description: p.string().length(500).default(''),
    /** Monthly price in integer cents of `currency`. */
    priceCents: p.integer().default(0),
    currency: p.string().length(3).default('EUR'),
    /** The Stripe price billed for the tier; maps subscription items back to it. */
    stripePriceId: p.string().length(120).nullable().unique(),
    sortOrder: p.integer().default(0),
    /** Listed in the public catalogue and selectable by change-plan. */
    public: p.boolean().default(true),
    entitlements: p.json<TierEntitlements>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});
export type Plan = InferEntity<typeof Plan>;
