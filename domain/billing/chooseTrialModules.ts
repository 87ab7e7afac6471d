import { conflict } from '../../lib/errors';
import type { Subscription } from '../../entities/billing/subscription';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { isTrialRunning, lockSubscription } from './subscription';
import { trialModulesFor } from './trialModules';

export interface ChooseTrialModulesProps {
  /** The paid modules the running trial unlocks from now on (replaces the current choice). */
  modules: string[];
}

/** Changes what the running trial unlocks (409 `trial_not_active` when no trial runs). */
export async function chooseTrialModules(ctx: TenantContext, props: ChooseTrialModulesProps): Promise<Subscription> {
  const sub = await ctx.em.transactional(async (em) => {
    const sub = await lockSubscription(em, ctx.tenantId);
    if (!isTrialRunning(sub)) throw conflict('trial_not_active', 'No trial is running for this organisation');
    const modules = await trialModulesFor(em, sub, props.modules);
    audit(em, {
      action: 'billing.trial_modules_chosen',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'subscription',
      targetId: sub.id,
      data: { from: sub.trialModules, to: modules },
    });
    sub.trialModules = modules;
    return sub;
  });
  await ctx.services.entitlements.invalidate(ctx.tenantId);
  return sub;
}
