import type { Em } from '../../lib/db';
import { invalidField, notFound } from '../../lib/errors';
import type { Plan } from '../../entities/billing/plan';
import type { Subscription } from '../../entities/billing/subscription';
import type { TenantContext } from '../context';
import { lockSubscriptionRow, planOfTier, subscriptionOf } from './store';

/** The organisation's subscription (opened with the organisation, so missing means unknown tenant: 404). */
export async function readSubscription(ctx: TenantContext): Promise<Subscription> {
  const sub = await subscriptionOf(ctx.em, ctx.tenantId);
  if (!sub) throw notFound('Subscription');
  return sub;
}

/** The subscription row locked for the current transaction, so concurrent changes of one organisation queue up. */
export async function lockSubscription(em: Em, tenantId: string): Promise<Subscription> {
  const sub = await lockSubscriptionRow(em, tenantId);
  if (!sub) throw notFound('Subscription');
  return sub;
}

/** A tier of the catalogue, or 400 on `field` when there is none (or it is not on sale and `publicOnly`). */
export async function planForField(
  em: Em,
  tier: string,
  field: string,
  options: { publicOnly?: boolean } = {},
): Promise<Plan> {
  const plan = await planOfTier(em, tier);
  if (!plan || (options.publicOnly && !plan.public)) throw invalidField(field, `${tier} is not an available plan`);
  return plan;
}

/** Modules the organisation has without any trial: its tier's and its add-ons. */
export async function ownedModules(em: Em, sub: Subscription): Promise<Set<string>> {
  const plan = await planOfTier(em, sub.tier);
  return new Set([...(plan?.entitlements.modules ?? []), ...sub.addons]);
}

export const isTrialRunning = (sub: Subscription, now = new Date()) => !!sub.trialEndsAt && sub.trialEndsAt > now;
