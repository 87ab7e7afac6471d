import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

/**
 * active/past_due/incomplete/unpaid/paused/canceled mirror the payment provider's subscription; `trialing`
 * is our own free trial (which may also run on top of a paid tier).
 */
export const subscriptionStatuses = [
  'active',
  'trialing',
  'past_due',
  'canceled',
  'incomplete',
  'unpaid',
  'paused',
] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** The one subscription of an organisation, created with it on the free tier. */
export const Subscription = defineEntity({
  name: 'Subscription',
  tableName: 'subscriptions',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId'] }],
  indexes: [{ properties: ['trialEndsAt'] }, { properties: ['tier'] }],
  properties: {
    ...tenantColumns(),
    tier: p.string().length(40),
    status: p.enum([...subscriptionStatuses]).default('active'),
    /** Add-on modules bought on top of the tier. */
    addons: p.array().default([]),
    /** Set once: an organisation gets one trial. */
    trialStartedAt: p.datetime().nullable(),
    trialEndsAt: p.datetime().nullable(),
    /** Paid modules the trial unlocks. */
    trialModules: p.array().default([]),
    stripeCustomerId: p.string().length(120).nullable().unique(),
    stripeSubscriptionId: p.string().length(120).nullable().unique(),
    /** The Checkout Session opened last and not yet completed: a new checkout expires it at Stripe, so one at most can be paid. */
    stripeCheckoutSessionId: p.string().length(255).nullable(),
    currentPeriodEnd: p.datetime().nullable(),
    cancelAtPeriodEnd: p.boolean().default(false),
    /** `created` time of the newest Stripe event applied; an older event never overwrites newer state. */
    stripeEventAt: p.datetime().nullable(),
    updatedAt: updatedAt(),
  },
});
export type Subscription = InferEntity<typeof Subscription>;
