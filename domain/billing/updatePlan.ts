import { invalidField } from '../../lib/errors';
import type { Plan } from '../../entities/billing/plan';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { findPlan } from './catalogue';
import { DEFAULT_TIER } from './openSubscription';
import { ensurePriceUnused } from './payments';

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
  const plan = await findPlan(ctx.em, tier);
  if (tier === DEFAULT_TIER && props.priceCents) throw invalidField('priceCents', 'the free tier has no price');
  if (tier === DEFAULT_TIER && props.stripePriceId)
    throw invalidField('stripePriceId', 'the free tier has no Stripe price');
  if (props.stripePriceId) await ensurePriceUnused(ctx.em, props.stripePriceId, { tier });
  const before = Object.fromEntries(
    Object.keys(props)
      .filter((k) => props[k as keyof UpdatePlanProps] !== undefined)
      .map((k) => [k, plan[k as keyof UpdatePlanProps]]),
  );
  ctx.em.assign(
    plan,
    { ...props, ...(props.currency ? { currency: props.currency.toUpperCase() } : {}) },
    { ignoreUndefined: true },
  );
  audit(ctx.em, {
    action: 'billing.plan_updated',
    actorId: ctx.userId,
    targetType: 'plan',
    targetId: tier,
    data: { before, after: props },
  });
  await ctx.em.flush();
  return plan;
}
