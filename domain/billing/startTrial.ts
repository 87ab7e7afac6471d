import { conflict } from '../../lib/errors';
import type { Subscription } from '../../entities/billing/subscription';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { lockSubscription } from './subscription';
import { trialModulesFor } from './trialModules';

const DAY_MS = 86_400_000;

export interface StartTrialProps {
  /** Paid modules the trial unlocks; omitted: every module the organisation does not have yet. */
  modules?: string[];
}

/** Starts the organisation's one free trial, TRIAL_DAYS long (409 `trial_already_used` the second time). */
export async function startTrial(ctx: TenantContext, props: StartTrialProps): Promise<Subscription> {
  const sub = await ctx.em.transactional(async (em) => {
    const sub = await lockSubscription(em, ctx.tenantId);
    if (sub.trialStartedAt) throw conflict('trial_already_used', 'This organisation has already used its free trial');
    const modules = await trialModulesFor(em, sub, props.modules);
    const now = new Date();
    sub.trialStartedAt = now;
    sub.trialEndsAt = new Date(now.getTime() + ctx.services.config.TRIAL_DAYS * DAY_MS);
    sub.trialModules = modules;
    if (sub.status === 'active') sub.status = 'trialing';
    audit(em, {
      action: 'billing.trial_started',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'subscription',
      targetId: sub.id,
      data: { modules, endsAt: sub.trialEndsAt.toISOString() },
    });
    return sub;
  });
  await ctx.services.entitlements.invalidate(ctx.tenantId);
  return sub;
}
