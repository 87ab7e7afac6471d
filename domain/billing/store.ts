import { LockMode, raw } from '@mikro-orm/core';
import type Stripe from 'stripe';
import type { Em } from '../../lib/db';
import { Addon } from '../../entities/billing/addon';
import { Plan } from '../../entities/billing/plan';
import { Promotion } from '../../entities/billing/promotion';
import { StripeEvent } from '../../entities/billing/stripeEvent';
import { Subscription } from '../../entities/billing/subscription';
import { DEFAULT_TIER } from './openSubscription';

/**
 * Billing's statements: subscriptions, the plan and add-on catalogue, promotions and stored Stripe events.
 * Named by what they read or change; the rules live in the use cases.
 */

// --- Subscriptions -------------------------------------------------------------------------------------------

/** The organisation's subscription (the tenant filter of `em` applies), or null. */
export function subscriptionOf(em: Em, tenantId: string): Promise<Subscription | null> {
  return em.findOne(Subscription, { tenantId });
}

/** Any organisation's subscription, whatever tenant `em` is scoped to, or null. */
export function anySubscriptionOf(em: Em, tenantId: string): Promise<Subscription | null> {
  return em.findOne(Subscription, { tenantId }, { filters: { tenant: false } });
}

/** The subscription row locked for the current transaction (refreshed), or null. */
export function lockSubscriptionRow(em: Em, tenantId: string): Promise<Subscription | null> {
  return em.findOne(
    Subscription,
    { tenantId },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, filters: { tenant: false } },
  );
}

/** The subscription that matches `where` (tenant, Stripe subscription or customer id), locked, any organisation's. */
export function lockSubscriptionWhere(
  em: Em,
  where: { tenantId: string } | { stripeSubscriptionId: string } | { stripeCustomerId: string },
): Promise<Subscription | null> {
  return em.findOne(Subscription, where, { lockMode: LockMode.PESSIMISTIC_WRITE, filters: { tenant: false } });
}

/** Sets the organisation's Stripe customer unless one was set meanwhile. */
export async function setCustomerIfNone(em: Em, tenantId: string, customerId: string): Promise<void> {
  await em.nativeUpdate(Subscription, { tenantId, stripeCustomerId: null }, { stripeCustomerId: customerId });
}

/** How many organisations hold the add-on. */
export function countAddonHolders(em: Em, moduleKey: string): Promise<number> {
  return em.count(Subscription, { addons: { $contains: [moduleKey] } }, { filters: { tenant: false } });
}

/** Subscriptions still trialing whose trial ended by `now`, oldest id first, `limit` at most. */
export function trialsEndedBy(em: Em, now: Date, limit: number): Promise<Subscription[]> {
  return em.find(
    Subscription,
    { status: 'trialing', trialEndsAt: { $lte: now } },
    { filters: { tenant: false }, limit, orderBy: { id: 'asc' } },
  );
}

/** Subscriptions whose trial runs after `now`, by id after `cursor`, `limit` at most. */
export function trialsRunningAt(em: Em, now: Date, props: { limit: number; cursor?: string }): Promise<Subscription[]> {
  return em.find(
    Subscription,
    { trialEndsAt: { $gt: now }, ...(props.cursor ? { id: { $gt: props.cursor } } : {}) },
    { filters: { tenant: false }, orderBy: { id: 'asc' }, limit: props.limit },
  );
}

// --- Plans and add-ons ---------------------------------------------------------------------------------------

export function planOfTier(em: Em, tier: string): Promise<Plan | null> {
  return em.findOne(Plan, { tier });
}

/** The tier catalogue in display order; non-public tiers only with `includeHidden`. */
export function plansInOrder(em: Em, options: { includeHidden: boolean }): Promise<Plan[]> {
  return em.find(Plan, options.includeHidden ? {} : { public: true }, { orderBy: { sortOrder: 'asc', tier: 'asc' } });
}

/** Every module some tier grants. */
export async function modulesOfAnyTier(em: Em): Promise<Set<string>> {
  const plans = await em.find(Plan, {}, { fields: ['entitlements'] });
  return new Set(plans.flatMap((p) => p.entitlements.modules));
}

/** Which of `tiers` exist. */
export async function existingTiers(em: Em, tiers: string[]): Promise<string[]> {
  if (!tiers.length) return [];
  return (await em.find(Plan, { tier: { $in: tiers } }, { fields: ['tier'] })).map((p) => p.tier);
}

const addonOrder = { orderBy: { sortOrder: 'asc', moduleKey: 'asc' } } as const;

export function addonOfModule(em: Em, moduleKey: string): Promise<Addon | null> {
  return em.findOne(Addon, { moduleKey });
}

/** Every add-on, in display order. */
export function addonsInOrder(em: Em): Promise<Addon[]> {
  return em.find(Addon, {}, addonOrder);
}

/** The add-ons on sale and those of `held`, in display order. */
export function addonsOnSaleOr(em: Em, held: string[]): Promise<Addon[]> {
  return em.find(Addon, { $or: [{ active: true }, { moduleKey: { $in: held } }] }, addonOrder);
}

export function addonsOfModules(em: Em, moduleKeys: string[]): Promise<Addon[]> {
  return em.find(Addon, { moduleKey: { $in: moduleKeys } });
}

/** The tiers and add-ons billed with a Stripe price. */
export async function pricedCatalogue(
  em: Em,
): Promise<{ plans: Pick<Plan, 'tier' | 'stripePriceId'>[]; addons: Pick<Addon, 'moduleKey' | 'stripePriceId'>[] }> {
  const [plans, addons] = await Promise.all([
    em.find(Plan, { stripePriceId: { $ne: null } }, { fields: ['tier', 'stripePriceId'] }),
    em.find(Addon, { stripePriceId: { $ne: null } }, { fields: ['moduleKey', 'stripePriceId'] }),
  ]);
  return { plans, addons };
}

/** Public paid tiers and active add-ons without a Stripe price, in display order. */
export async function unpricedCatalogue(em: Em): Promise<{ tiers: string[]; addons: string[] }> {
  const [plans, addons] = await Promise.all([
    em.find(
      Plan,
      { stripePriceId: null, public: true, tier: { $ne: DEFAULT_TIER } },
      { orderBy: { sortOrder: 'asc' }, fields: ['tier'] },
    ),
    em.find(Addon, { stripePriceId: null, active: true }, { orderBy: { sortOrder: 'asc' }, fields: ['moduleKey'] }),
  ]);
  return { tiers: plans.map((p) => p.tier), addons: addons.map((a) => a.moduleKey) };
}

/** The tier or add-on, other than `owner`, already billed with the price (null: none). */
export async function priceHolder(
  em: Em,
  priceId: string,
  owner: { tier?: string; moduleKey?: string },
): Promise<{ tier?: string; moduleKey?: string } | null> {
  const [plan, addon] = await Promise.all([
    em.findOne(Plan, { stripePriceId: priceId, tier: { $ne: owner.tier ?? '' } }, { fields: ['tier'] }),
    em.findOne(Addon, { stripePriceId: priceId, moduleKey: { $ne: owner.moduleKey ?? '' } }, { fields: ['moduleKey'] }),
  ]);
  return plan ? { tier: plan.tier } : addon ? { moduleKey: addon.moduleKey } : null;
}

// --- Promotions ----------------------------------------------------------------------------------------------

/** The promotion of a code as stored (upper case), or null. */
export function promotionOfCode(em: Em, code: string): Promise<Promotion | null> {
  return em.findOne(Promotion, { code });
}

/** Another promotion than `id` with the code, or null. */
export function otherPromotionWithCode(em: Em, code: string, id: string): Promise<Promotion | null> {
  return em.findOne(Promotion, { code, id: { $ne: id } });
}

/** Promotions by id after `cursor`, `limit` at most. */
export function promotionsAfter(em: Em, props: { limit: number; cursor?: string }): Promise<Promotion[]> {
  return em.find(Promotion, props.cursor ? { id: { $gt: props.cursor } } : {}, {
    orderBy: { id: 'asc' },
    limit: props.limit,
  });
}

export async function setCouponId(em: Em, promotionId: string, couponId: string): Promise<void> {
  await em.nativeUpdate(Promotion, { id: promotionId }, { stripeCouponId: couponId });
}

/**
 * Counts one redemption, in one statement, unless it would pass maxRedemptions or `at` is past expiresAt:
 * whether it was counted.
 */
export async function countRedemption(em: Em, promotionId: string, at: Date): Promise<boolean> {
  const counted = await em.nativeUpdate(
    Promotion,
    {
      id: promotionId,
      $and: [
        { $or: [{ maxRedemptions: null }, { redemptions: { $lt: raw('max_redemptions') } }] },
        { $or: [{ expiresAt: null }, { expiresAt: { $gt: at } }] },
      ],
    },
    { redemptions: raw('redemptions + 1') },
  );
  return counted > 0;
}

// --- Stripe events -------------------------------------------------------------------------------------------

/** Stores a verified event by its id; false when the id was stored already (nothing written). */
export async function insertStripeEvent(em: Em, event: Stripe.Event): Promise<boolean> {
  const inserted = await em
    .createQueryBuilder(StripeEvent)
    .insert({
      id: event.id,
      type: event.type,
      created: new Date(event.created * 1000),
      payload: event as unknown as Record<string, unknown>,
      receivedAt: new Date(),
    })
    .onConflict('id')
    .ignore()
    .execute('run');
  return inserted.affectedRows > 0;
}

/** When the stored event was processed (null: not yet; undefined: not stored). */
export async function stripeEventProcessedAt(em: Em, eventId: string): Promise<Date | null | undefined> {
  const stored = await em.findOne(StripeEvent, { id: eventId }, { fields: ['processedAt'] });
  return stored ? (stored.processedAt ?? null) : undefined;
}

/** The stored event's row, locked for the current transaction (refreshed). */
export function lockStripeEvent(em: Em, eventId: string): Promise<StripeEvent> {
  return em.findOneOrFail(StripeEvent, { id: eventId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/**
 * Whether a Stripe subscription has ended for good, as recorded: an event already processed for this
 * organisation that deleted it (customer.subscription.deleted) or showed it in a terminal status (canceled,
 * incomplete_expired). Read from stripe_events (tenant_id index), so no new column.
 */
export async function subscriptionEndRecorded(em: Em, tenantId: string, subscriptionId: string): Promise<boolean> {
  const rows = await em.execute<{ one: number }[]>(
    `select 1 as one from stripe_events
      where tenant_id = ? and processed_at is not null and type in ('customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted')
        and payload->'data'->'object'->>'id' = ?
        and (type = 'customer.subscription.deleted' or payload->'data'->'object'->>'status' in ('canceled', 'incomplete_expired'))
      limit 1`,
    [tenantId, subscriptionId],
  );
  return rows.length > 0;
}

/** Ids of stored events not processed yet, received in the last three days but more than `olderThanMs` ago, oldest first. */
export async function unprocessedStripeEvents(em: Em, olderThanMs: number, limit: number): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    `select id from stripe_events where processed_at is null and received_at > now() - interval '3 days' and received_at < now() - ? * interval '1 millisecond' order by received_at limit ${limit}`,
    [olderThanMs],
  );
  return rows.map((r) => r.id);
}
