import type { Em } from '../../lib/db';
import type { Entitlements } from '../../lib/entitlementCache';
import { Plan } from '../../entities/billing/plan';
import { Subscription } from '../../entities/billing/subscription';
import { Organization } from '../../entities/identity/organization';

/**
 * The effective entitlements of an organisation: its tier's modules and limits, plus bought add-ons, plus
 * the modules of a running trial. A suspended organisation, or one without a subscription, gets no module.
 * This is the loader behind the edge's requireModule (through the Redis cache). A running trial makes the
 * result valid only until the trial's end, which the cache honours to the millisecond.
 */
export async function loadEntitlements(em: Em, tenantId: string, now = new Date()): Promise<Entitlements> {
  const [org, sub] = await Promise.all([
    em.findOne(Organization, { id: tenantId }),
    em.findOne(Subscription, { tenantId }, { filters: { tenant: false } }),
  ]);
  const plan = sub ? await em.findOne(Plan, { tier: sub.tier }) : null;
  const trialActive = !!sub?.trialEndsAt && sub.trialEndsAt > now;
  const trialModules = trialActive ? sub.trialModules : [];
  const suspended = !org || !!org.suspendedAt;
  const modules = suspended || !plan ? [] : [...new Set([...plan.entitlements.modules, ...sub!.addons, ...trialModules])].sort();
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
