import type Stripe from 'stripe';
import type { Addon } from '../../entities/billing/addon';
import type { Plan } from '../../entities/billing/plan';
import type { PriceTarget } from './payments';

/**
 * The item changes that turn a Stripe subscription's items into `plan` + `addons` (Stripe prorates them): the
 * first tier item re-priced (or one added), add-on items kept, removed or added. Items of prices the catalogue
 * does not know (`index`: price id -> what it bills) are left alone.
 */
export function itemChanges(
  index: ReadonlyMap<string, PriceTarget>,
  current: Pick<Stripe.SubscriptionItem, 'id' | 'price'>[],
  plan: Pick<Plan, 'stripePriceId'>,
  addons: Pick<Addon, 'stripePriceId'>[],
): Stripe.SubscriptionUpdateParams.Item[] {
  const items: Stripe.SubscriptionUpdateParams.Item[] = [];
  const wanted = new Set(addons.map((a) => a.stripePriceId!));
  let tierItem = false;
  for (const item of current) {
    const target = index.get(item.price.id);
    if (target?.kind === 'tier' && !tierItem) {
      tierItem = true;
      if (item.price.id !== plan.stripePriceId) items.push({ id: item.id, price: plan.stripePriceId! });
    } else if (target?.kind === 'addon') {
      if (!wanted.delete(item.price.id)) items.push({ id: item.id, deleted: true });
    }
  }
  if (!tierItem) items.push({ price: plan.stripePriceId!, quantity: 1 });
  for (const price of wanted) items.push({ price, quantity: 1 });
  return items;
}
