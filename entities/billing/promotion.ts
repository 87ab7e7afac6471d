import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, idColumn, updatedAt } from '../base';

/**
 * A promotion code. `code` is stored upper-cased, which makes it unique case-insensitively. Exactly one of
 * percentOff or amountOffCents (+ currency) is set. The Stripe coupon is created on first checkout use.
 */
export const Promotion = defineEntity({
  name: 'Promotion',
  tableName: 'promotions',
  properties: {
    id: idColumn(),
    code: p.string().length(64).unique(),
    percentOff: p.integer().nullable(),
    amountOffCents: p.integer().nullable(),
    currency: p.string().length(3).nullable(),
    expiresAt: p.datetime().nullable(),
    maxRedemptions: p.integer().nullable(),
    /** Completed checkouts that used the code (counted from the payment provider's webhook). */
    redemptions: p.integer().default(0),
    active: p.boolean().default(true),
    /** Tiers the code applies to; empty means every tier. */
    appliesToTiers: p.array().default([]),
    stripeCouponId: p.string().length(120).nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});
export type Promotion = InferEntity<typeof Promotion>;
