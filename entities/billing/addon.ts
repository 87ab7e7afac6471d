import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, updatedAt } from '../base';

/** A module sold on its own, on top of a tier; identified by its module key (vr, rh, ...). */
export const Addon = defineEntity({
  name: 'Addon',
  tableName: 'addons',
  properties: {
    moduleKey: p.string().length(40).primary(),
    name: p.string().length(80),
    description: p.string().length(500).default(''),
    /** Monthly price in integer cents of `currency`. */
    priceCents: p.integer().default(0),
    currency: p.string().length(3).default('EUR'),
    /** The Stripe price billed for it; maps subscription items back to the add-on. */
    stripePriceId: p.string().length(120).nullable().unique(),
    /** Inactive add-ons are no longer sold; organisations that hold one keep it. */
    active: p.boolean().default(true),
    sortOrder: p.integer().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});
export type Addon = InferEntity<typeof Addon>;
