import type { Em } from '../../lib/db';
import type { Services } from '../services';
import { unpricedCatalogue } from './store';

export interface PaymentProviderStatus {
  configured: boolean;
  webhookSecretSet: boolean;
  /** test or live, read from the key's prefix; null when not configured. */
  mode: 'test' | 'live' | null;
  /** Public paid tiers that cannot be bought yet: no Stripe price id. */
  tiersWithoutPrice: string[];
  /** Active add-ons that cannot be bought yet: no Stripe price id. */
  addonsWithoutPrice: string[];
}

/** What an owner needs to know to finish setting up payments. */
export async function getPaymentProviderStatus(em: Em, services: Services): Promise<PaymentProviderStatus> {
  const key = services.config.STRIPE_SECRET_KEY;
  const unpriced = await unpricedCatalogue(em);
  return {
    configured: !!services.payments,
    webhookSecretSet: !!services.config.STRIPE_WEBHOOK_SECRET,
    mode: !key ? null : /^(sk|rk)_live_/.test(key) ? 'live' : 'test',
    tiersWithoutPrice: unpriced.tiers,
    addonsWithoutPrice: unpriced.addons,
  };
}
