import type Stripe from 'stripe';
import type { PriceTarget } from './payments';
import { itemChanges } from './subscriptionItems';

const index = new Map<string, PriceTarget>([
  ['price_starter', { kind: 'tier', tier: 'starter' }],
  ['price_pro', { kind: 'tier', tier: 'pro' }],
  ['price_vr', { kind: 'addon', moduleKey: 'vr' }],
  ['price_hr', { kind: 'addon', moduleKey: 'hr' }],
]);
const item = (id: string, price: string) => ({ id, price: { id: price } as Stripe.Price });

describe('itemChanges', () => {
  it('re-prices the tier item and adds the add-ons wanted', () => {
    expect(
      itemChanges(index, [item('si_1', 'price_starter')], { stripePriceId: 'price_pro' }, [
        { stripePriceId: 'price_vr' },
      ]),
    ).toEqual([
      { id: 'si_1', price: 'price_pro' },
      { price: 'price_vr', quantity: 1 },
    ]);
  });

  it('changes nothing when the items already match', () => {
    expect(
      itemChanges(index, [item('si_1', 'price_pro'), item('si_2', 'price_vr')], { stripePriceId: 'price_pro' }, [
        { stripePriceId: 'price_vr' },
      ]),
    ).toEqual([]);
  });

  it('removes the add-on items no longer wanted', () => {
    expect(
      itemChanges(
        index,
        [item('si_1', 'price_pro'), item('si_2', 'price_vr'), item('si_3', 'price_hr')],
        { stripePriceId: 'price_pro' },
        [{ stripePriceId: 'price_hr' }],
      ),
    ).toEqual([{ id: 'si_2', deleted: true }]);
  });

  it('adds a tier item when there is none, and leaves unknown prices and a second tier item alone', () => {
    expect(itemChanges(index, [item('si_9', 'price_other')], { stripePriceId: 'price_pro' }, [])).toEqual([
      { price: 'price_pro', quantity: 1 },
    ]);
    expect(
      itemChanges(
        index,
        [item('si_1', 'price_pro'), item('si_2', 'price_starter')],
        { stripePriceId: 'price_pro' },
        [],
      ),
    ).toEqual([]);
  });
});
