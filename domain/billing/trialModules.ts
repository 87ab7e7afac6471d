import type { Em } from '../../lib/db';
import { conflict, invalidField } from '../../lib/errors';
import type { Subscription } from '../../entities/billing/subscription';
import { modulesOfAnyTier } from './store';
import { ownedModules } from './subscription';

/**
 * The modules a trial unlocks: the requested ones, each of which must be missing from the organisation's tier
 * and add-ons (400), or by default every module of the catalogue it does not have yet.
 */
export async function trialModulesFor(em: Em, sub: Subscription, requested: string[] | undefined): Promise<string[]> {
  const owned = await ownedModules(em, sub);
  if (requested) {
    const included = requested.filter((m) => owned.has(m));
    if (included.length) throw invalidField('modules', `already included in the subscription: ${included.join(', ')}`);
    return [...new Set(requested)].sort();
  }
  const sold = await modulesOfAnyTier(em);
  const modules = [...sold].filter((m) => !owned.has(m)).sort();
  if (!modules.length) throw conflict('nothing_to_trial', 'The subscription already includes every module');
  return modules;
}
