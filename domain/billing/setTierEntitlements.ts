import type { Plan, TierEntitlements } from '../../entities/billing/plan';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { findPlan } from './catalogue';

/**
 * Replaces what a tier grants. Every organisation on the tier is affected: the whole entitlement cache is
 * invalidated at once (one generation bump and one message, whatever the number of organisations).
 */
export async function setTierEntitlements(
  ctx: TenantContext,
  tier: string,
  entitlements: TierEntitlements,
): Promise<Plan> {
  const plan = await findPlan(ctx.em, tier);
  const next: TierEntitlements = {
    modules: [...new Set(entitlements.modules)].sort(),
    limits: { ...entitlements.limits },
  };
  audit(ctx.em, {
    action: 'billing.tier_entitlements_set',
    actorId: ctx.userId,
    targetType: 'plan',
    targetId: tier,
    data: { before: plan.entitlements, after: next },
  });
  plan.entitlements = next;
  await ctx.em.flush();
  await ctx.services.entitlements.invalidateAll();
  return plan;
}
