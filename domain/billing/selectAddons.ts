import type { Em } from '../../lib/db';
import { invalidField } from '../../lib/errors';
import type { Addon } from '../../entities/billing/addon';
import type { Plan } from '../../entities/billing/plan';
import type { Subscription } from '../../entities/billing/subscription';
import { DEFAULT_TIER } from './openSubscription';
import { addonsOfModules } from './store';

/** The add-ons wanted with `plan`: each must be on sale (or already held) and not part of the tier; none with the free tier. */
export async function selectAddons(
  em: Em,
  plan: Plan,
  sub: Subscription,
  requested: string[] | undefined,
): Promise<Addon[]> {
  if (plan.tier === DEFAULT_TIER) {
    if (requested?.length) throw invalidField('addons', 'add-ons need a paid plan');
    return [];
  }
  const included = new Set(plan.entitlements.modules);
  const keys = [...new Set(requested ?? sub.addons.filter((m) => !included.has(m)))];
  if (!keys.length) return [];
  const doubled = keys.filter((k) => included.has(k));
  if (doubled.length) throw invalidField('addons', `already included in ${plan.tier}: ${doubled.join(', ')}`);
  const addons = await addonsOfModules(em, keys);
  // An add-on taken off sale stays available to the organisations that already hold it.
  const unknown = keys.filter((k) => !addons.some((a) => a.moduleKey === k && (a.active || sub.addons.includes(k))));
  if (unknown.length) throw invalidField('addons', `not available: ${unknown.join(', ')}`);
  return addons;
}
