import type { Em } from '../../lib/db';
import { invalidField, notFound } from '../../lib/errors';
import { Plan, type TierEntitlements } from '../../entities/billing/plan';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { DEFAULT_TIER } from './openSubscription';
import { ensurePriceUnused } from './payments';

/** The tier catalogue in display order; non-public tiers (e.g. enterprise) only with `includeHidden`. */
export function listPlans(em: Em, options: { includeHidden: boolean }): Promise<Plan[]> {
  return em.find(Plan, options.includeHidden ? {} : { public: true }, { orderBy: { sortOrder: 'asc', tier: 'asc' } });
}

async function findPlan(ctx: TenantContext, tier: string): Promise<Plan> {
  const plan = await ctx.em.findOne(Plan, { tier });
  if (!plan) throw notFound('Plan');
  return plan;
}

export interface UpdatePlanProps {
  name?: string;
  description?: string;
  /** Monthly price in integer cents. */
  priceCents?: number;
  /** ISO 4217 code. */
  currency?: string;
  /** Stripe price billed for the tier; null unlinks it. */
  stripePriceId?: string | null;
  /** Listed in the public catalogue and selectable by change-plan and checkout. */
  public?: boolean;
  sortOrder?: number;
}

/**
 * Edits a tier's catalogue entry (fields left out are kept). The free tier stays free: no price, no Stripe
 * price (400). Nothing here changes what a tier grants, so no entitlement is invalidated.
 */
export async function updatePlan(ctx: TenantContext, tier: string, props: UpdatePlanProps): Promise<Plan> {
  const plan = await findPlan(ctx, tier);
  if (tier === DEFAULT_TIER && props.priceCents) throw invalidField('priceCents', 'the free tier has no price');
  if (tier === DEFAULT_TIER && props.stripePriceId) throw invalidField('stripePriceId', 'the free tier has no Stripe price');
  if (props.stripePriceId) await ensurePriceUnused(ctx.em, props.stripePriceId, { tier });
  const before = Object.fromEntries(Object.keys(props).filter((k) => props[k as keyof UpdatePlanProps] !== undefined).map((k) => [k, plan[k as keyof UpdatePlanProps]]));
  ctx.em.assign(plan, { ...props, ...(props.currency ? { currency: props.currency.toUpperCase() } : {}) }, { ignoreUndefined: true });
  audit(ctx.em, { action: 'billing.plan_updated', actorId: ctx.userId, targetType: 'plan', targetId: tier, data: { before, after: props } });
  await ctx.em.flush();
  return plan;
}

/**
 * Replaces what a tier grants. Every organisation on the tier is affected: the whole entitlement cache is
 * invalidated at once (one generation bump and one message, whatever the number of organisations).
 */
export async function setTierEntitlements(ctx: TenantContext, tier: string, entitlements: TierEntitlements): Promise<Plan> {
  const plan = await findPlan(ctx, tier);
  const next: TierEntitlements = { modules: [...new Set(entitlements.modules)].sort(), limits: { ...entitlements.limits } };
  audit(ctx.em, { action: 'billing.tier_entitlements_set', actorId: ctx.userId, targetType: 'plan', targetId: tier, data: { before: plan.entitlements, after: next } });
  plan.entitlements = next;
  await ctx.em.flush();
  await ctx.services.entitlements.invalidateAll();
  return plan;
}
