import type { Em } from '../../lib/db';
import type { Addon } from '../../entities/billing/addon';
import type { TenantContext } from '../context';
import { addonsInOrder, addonsOnSaleOr } from './store';
import { readSubscription } from './subscription';

/** The add-ons on sale, and those the caller's organisation holds (on sale or not). */
export async function addonCatalogue(ctx: TenantContext): Promise<{ addons: Addon[]; owned: string[] }> {
  const sub = await readSubscription(ctx);
  const addons = await addonsOnSaleOr(ctx.em, sub.addons);
  return { addons, owned: sub.addons };
}

/** Every add-on, on sale or not (administrators). */
export function listAllAddons(em: Em): Promise<Addon[]> {
  return addonsInOrder(em);
}
