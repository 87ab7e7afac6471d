import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';
import { callStripe, requirePayments, returnUrl } from './payments';
import { readSubscription } from './subscription';

/** A Stripe billing portal session for the organisation's customer (409 `no_billing_account` before any checkout). */
export async function openPortal(ctx: TenantContext): Promise<{ url: string }> {
  requirePayments(ctx.services);
  const sub = await readSubscription(ctx);
  const customer = sub.stripeCustomerId;
  if (!customer)
    throw conflict(
      'no_billing_account',
      'The organisation has no billing account yet: subscribe through checkout first',
    );
  const session = await callStripe(ctx.services, (stripe) =>
    stripe.billingPortal.sessions.create({ customer, return_url: returnUrl(ctx.services) }),
  );
  return { url: session.url };
}
