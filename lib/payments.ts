import type Stripe from 'stripe';
import type { Config } from './config';
import { onFirstUse } from './lazy';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const stripeSdk = onFirstUse(() => require('stripe') as typeof Stripe);

/** Host, port and protocol options that point the SDK at another server (STRIPE_API_URL: tests, stripe-mock). */
function apiAddress(url: string): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!url) return {};
  const { hostname, port, protocol } = new URL(url);
  const scheme = protocol === 'http:' ? 'http' : 'https';
  return { host: hostname, port: port || (scheme === 'http' ? 80 : 443), protocol: scheme };
}

/**
 * The Stripe client, or null when STRIPE_SECRET_KEY is unset: payment routes then answer 503
 * `payment_provider_not_configured` and everything else keeps working. Webhook signatures are checked with
 * the SDK's static helper and need only STRIPE_WEBHOOK_SECRET.
 */
export function createPayments(config: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_API_URL'>): Stripe | null {
  if (!config.STRIPE_SECRET_KEY) return null;
  const Sdk = stripeSdk();
  return new Sdk(config.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    appInfo: { name: 'platform-suite' },
    ...apiAddress(config.STRIPE_API_URL),
  });
}
