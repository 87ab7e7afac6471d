import type { Em } from '../../lib/db';
import { conflict, invalidField, notFound } from '../../lib/errors';
import { Addon } from '../../entities/billing/addon';
import type { Plan } from '../../entities/billing/plan';
import { Subscription } from '../../entities/billing/subscription';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { DEFAULT_TIER } from './openSubscription';
import { ensurePriceUnused } from './payments';
import { readSubscription } from './subscription';

const order = { orderBy: { sortOrder: 'asc', moduleKey: 'asc' } } as const;

/** The add-ons on sale, and those the caller's organisation holds (on sale or not). */
export async function addonCatalogue(ctx: TenantContext): Promise<{ addons: Addon[]; owned: string[] }> {
  const sub = await readSubscription(ctx);
  const addons = await ctx.em.find(Addon, { $or: [{ active: true }, { moduleKey: { $in: sub.addons } }] }, order);
  return { addons, owned: sub.addons };
}

/** Every add-on, on sale or not (administrators). */
export function listAllAddons(em: Em): Promise<Addon[]> {
  return em.find(Addon, {}, order);
}

async function findAddon(em: Em, moduleKey: string): Promise<Addon> {
  const addon = await em.findOne(Addon, { moduleKey });
  if (!addon) throw notFound('Add-on');
  return addon;
}

export interface AddonProps {
  name: string;
  description?: string;
  /** Monthly price in integer cents. */
  priceCents: number;
  /** ISO 4217 code. */
  currency?: string;
  /** Stripe price billed for it; null unlinks it. */
  stripePriceId?: string | null;
  /** On sale; an inactive add-on stays with the organisations that hold it. */
  active?: boolean;
  sortOrder?: number;
}

const normalised = <T extends Partial<AddonProps>>(props: T): T => (props.currency ? { ...props, currency: props.currency.toUpperCase() } : props);

/** Puts a module on sale as an add-on (409 `addon_exists` when the module already is one). */
export async function createAddon(ctx: TenantContext, props: AddonProps & { moduleKey: string }): Promise<Addon> {
  if (await ctx.em.findOne(Addon, { moduleKey: props.moduleKey })) throw conflict('addon_exists', `The ${props.moduleKey} add-on already exists`);
  if (props.stripePriceId) await ensurePriceUnused(ctx.em, props.stripePriceId, { moduleKey: props.moduleKey });
  const addon = ctx.em.create(Addon, normalised(props));
  audit(ctx.em, { action: 'billing.addon_created', actorId: ctx.userId, targetType: 'addon', targetId: props.moduleKey, data: { ...props } });
  await ctx.em.flush();
  return addon;
}

/** Edits an add-on (fields left out are kept). What organisations hold does not change. */
export async function updateAddon(ctx: TenantContext, moduleKey: string, props: Partial<AddonProps>): Promise<Addon> {
  const addon = await findAddon(ctx.em, moduleKey);
  if (props.stripePriceId) await ensurePriceUnused(ctx.em, props.stripePriceId, { moduleKey });
  ctx.em.assign(addon, normalised(props), { ignoreUndefined: true });
  audit(ctx.em, { action: 'billing.addon_updated', actorId: ctx.userId, targetType: 'addon', targetId: moduleKey, data: { ...props } });
  await ctx.em.flush();
  return addon;
}

/**
 * Deletes an add-on nobody holds. While an organisation holds it: 409 `addon_in_use` (set `active: false`
 * to stop selling it instead: holders keep it).
 */
export async function deleteAddon(ctx: TenantContext, moduleKey: string): Promise<void> {
  const addon = await findAddon(ctx.em, moduleKey);
  const holders = await ctx.em.count(Subscription, { addons: { $contains: [moduleKey] } }, { filters: { tenant: false } });
  if (holders) throw conflict('addon_in_use', `${holders} organisation(s) hold the ${moduleKey} add-on; deactivate it instead`);
  audit(ctx.em, { action: 'billing.addon_deleted', actorId: ctx.userId, targetType: 'addon', targetId: moduleKey });
  ctx.em.remove(addon);
  await ctx.em.flush();
}

/** The add-ons wanted with `plan`: each must be on sale (or already held) and not part of the tier; none with the free tier. */
export async function selectAddons(em: Em, plan: Plan, sub: Subscription, requested: string[] | undefined): Promise<Addon[]> {
  if (plan.tier === DEFAULT_TIER) {
    if (requested?.length) throw invalidField('addons', 'add-ons need a paid plan');
    return [];
  }
  const included = new Set(plan.entitlements.modules);
  const keys = [...new Set(requested ?? sub.addons.filter((m) => !included.has(m)))];
  if (!keys.length) return [];
  const doubled = keys.filter((k) => included.has(k));
  if (doubled.length) throw invalidField('addons', `already included in ${plan.tier}: ${doubled.join(', ')}`);
  const addons = await em.find(Addon, { moduleKey: { $in: keys } });
  // An add-on taken off sale stays available to the organisations that already hold it.
  const unknown = keys.filter((k) => !addons.some((a) => a.moduleKey === k && (a.active || sub.addons.includes(k))));
  if (unknown.length) throw invalidField('addons', `not available: ${unknown.join(', ')}`);
  return addons;
}
