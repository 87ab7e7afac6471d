import type { Entitlements } from '../../lib/entitlementCache';
import type { Plan } from '../../entities/billing/plan';
import type { Subscription } from '../../entities/billing/subscription';

/** What the entitlements are computed from: the organisation (suspended or not), its subscription and its tier. */
export interface EntitlementSources {
  org: { suspendedAt?: Date | null } | null;
  sub: Pick<Subscription, 'tier' | 'status' | 'addons' | 'trialEndsAt' | 'trialModules'> | null;
  plan: Pick<Plan, 'entitlements'> | null;
}

/**
 * The effective entitlements of an organisation: its tier's modules and limits, plus bought add-ons, plus
 * the modules of a running trial. A suspended organisation, or one without a subscription, gets no module.
 * A running trial makes the result valid only until the trial's end (`validUntil`).
 */
export function resolveEntitlements(
  tenantId: string,
  { org, sub, plan }: EntitlementSources,
  now = new Date(),
): Entitlements {
  const trialActive = !!sub?.trialEndsAt && sub.trialEndsAt > now;
  const trialModules = trialActive ? sub.trialModules : [];
  const suspended = !org || !!org.suspendedAt;
  const modules =
    suspended || !plan ? [] : [...new Set([...plan.entitlements.modules, ...sub!.addons, ...trialModules])].sort();
  return {
    tenantId,
    tier: sub?.tier ?? 'none',
    status: sub ? String(sub.status) : 'none',
    modules,
    limits: plan?.entitlements.limits ?? {},
    trial: { active: trialActive, endsAt: sub?.trialEndsAt?.toISOString() ?? null, modules: trialModules },
    addons: sub?.addons ?? [],
    suspended,
    validUntil: trialActive ? sub.trialEndsAt!.toISOString() : null,
  };
}
