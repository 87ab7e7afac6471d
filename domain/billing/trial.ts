import type { Em } from '../../lib/db';
import { conflict, invalidField } from '../../lib/errors';
import { Plan } from '../../entities/billing/plan';
import { Subscription } from '../../entities/billing/subscription';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import type { Services } from '../services';
import { isTrialRunning, lockSubscription, ownedModules } from './subscription';

const DAY_MS = 86_400_000;

/**
 * The modules a trial unlocks: the requested ones, each of which must be missing from the organisation's tier
 * and add-ons (400), or by default every module of the catalogue it does not have yet.
 */
async function trialModulesFor(em: Em, sub: Subscription, requested: string[] | undefined): Promise<string[]> {
  const owned = await ownedModules(em, sub);
  if (requested) {
    const included = requested.filter((m) => owned.has(m));
    if (included.length) throw invalidField('modules', `already included in the subscription: ${included.join(', ')}`);
    return [...new Set(requested)].sort();
  }
  const plans = await em.find(Plan, {}, { fields: ['entitlements'] });
  const sold = new Set(plans.flatMap((p) => p.entitlements.modules));
  const modules = [...sold].filter((m) => !owned.has(m)).sort();
  if (!modules.length) throw conflict('nothing_to_trial', 'The subscription already includes every module');
  return modules;
}

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
    audit(em, { action: 'billing.trial_started', actorId: ctx.userId, tenantId: ctx.tenantId, targetType: 'subscription', targetId: sub.id, data: { modules, endsAt: sub.trialEndsAt.toISOString() } });
    return sub;
  });
  await ctx.services.entitlements.invalidate(ctx.tenantId);
  return sub;
}

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
    audit(em, { action: 'billing.trial_modules_chosen', actorId: ctx.userId, tenantId: ctx.tenantId, targetType: 'subscription', targetId: sub.id, data: { from: sub.trialModules, to: modules } });
    sub.trialModules = modules;
    return sub;
  });
  await ctx.services.entitlements.invalidate(ctx.tenantId);
  return sub;
}

const BATCH = 500;

/**
 * The clock's every-minute sweep: trials past their end go back to `active`, and each organisation's cached
 * entitlements are invalidated. (Gating already stopped at the exact end: cached entitlements expire at
 * `validUntil`; this sweep settles the status.) Idempotent: a second run finds nothing.
 */
export async function endExpiredTrials(services: Services, now = new Date()): Promise<string[]> {
  const ended: string[] = [];
  for (;;) {
    const em = services.orm.em.fork();
    const subs = await em.find(Subscription, { status: 'trialing', trialEndsAt: { $lte: now } }, { filters: { tenant: false }, limit: BATCH, orderBy: { id: 'asc' } });
    for (const sub of subs) {
      sub.status = 'active';
      audit(em, { action: 'billing.trial_ended', tenantId: sub.tenantId, targetType: 'subscription', targetId: sub.id, data: { endedAt: sub.trialEndsAt!.toISOString() } });
    }
    await em.flush();
    for (const sub of subs) await services.entitlements.invalidate(sub.tenantId);
    ended.push(...subs.map((s) => s.tenantId));
    if (subs.length < BATCH) return ended;
  }
}

export interface ListTrialsProps {
  limit: number;
  /** Id of the last subscription of the previous page. */
  cursor?: string;
}

/** Trials running now, across organisations (internal route), oldest subscription first. */
export async function listRunningTrials(services: Services, props: ListTrialsProps): Promise<{ items: Subscription[]; nextCursor: string | null }> {
  const em = services.orm.em.fork();
  const items = await em.find(
    Subscription,
    { trialEndsAt: { $gt: new Date() }, ...(props.cursor ? { id: { $gt: props.cursor } } : {}) },
    { filters: { tenant: false }, orderBy: { id: 'asc' }, limit: props.limit + 1 },
  );
  const more = items.length > props.limit;
  const page = items.slice(0, props.limit);
  return { items: page, nextCursor: more ? page.at(-1)!.id : null };
}
