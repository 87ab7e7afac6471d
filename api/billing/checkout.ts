import type { ModuleMount } from '../http/mount';
import type { RateLimitRule } from '../http/rateLimit';
import { openCheckout, openPortal } from '../../domain/billing/checkout';
import { CheckoutBody } from './dtos';
import { CheckoutSessionView, EmbeddedCheckoutView, PortalView } from './views';

const perOrganisation: RateLimitRule[] = [{ name: 'checkout', limit: 20, by: (req) => req.auth?.tenantId }];
const notConfigured = {
  502: '`payment_provider_error` (Stripe refused the request)',
  503: '`payment_provider_not_configured` (STRIPE_SECRET_KEY is unset), `payment_provider_unavailable` (Stripe unreachable)',
};
const checkoutErrors = {
  409: '`subscription_exists` (use change-plan or the portal; also when the previous checkout was just paid), `plan_not_purchasable` or `addon_not_purchasable` (no Stripe price id)',
  ...notConfigured,
};
const checkoutDescription = `Stripe Checkout in subscription mode for a paid public tier, optional add-ons and an optional promotion code
(applied to the first invoice). The organisation's Stripe customer is created on first use and kept. The tenant id travels as
client_reference_id and in the session and subscription metadata; the subscription changes when Stripe's webhook reports the payment.
An organisation has one open checkout: opening one expires its previous one at Stripe (that page then says the session expired), so two
can never both be paid; when the previous one was paid already, the new one is expired too and the answer is 409 \`subscription_exists\`.`;

/** /api/checkout: Stripe Checkout (hosted or embedded) and the billing portal. */
export function checkoutRoutes({ routes }: ModuleMount): void {
  const r = routes('Billing: checkout');

  r.post(
    '/api/checkout/session',
    { summary: 'Open a hosted checkout', description: `${checkoutDescription} Redirect the customer to \`url\`.`, access: 'user', permission: 'billing.manage', body: CheckoutBody, response: CheckoutSessionView, rateLimits: perOrganisation, errors: checkoutErrors },
    async ({ ctx, body }) => {
      const session = await openCheckout(ctx, { ...body, mode: 'hosted' });
      return { id: session.id, url: session.url };
    },
  );

  r.post(
    '/api/checkout/embedded-session',
    { summary: 'Open an embedded checkout', description: `${checkoutDescription} Mount it with Stripe.js and \`clientSecret\`.`, access: 'user', permission: 'billing.manage', body: CheckoutBody, response: EmbeddedCheckoutView, rateLimits: perOrganisation, errors: checkoutErrors },
    async ({ ctx, body }) => {
      const session = await openCheckout(ctx, { ...body, mode: 'embedded' });
      return { id: session.id, clientSecret: session.clientSecret };
    },
  );

  r.post(
    '/api/checkout/portal',
    {
      summary: 'Open the billing portal',
      description: "A Stripe billing portal session for the organisation's customer (payment methods, invoices, cancellation). Redirect the customer to `url`.",
      access: 'user',
      permission: 'billing.manage',
      response: PortalView,
      rateLimits: perOrganisation,
      errors: { 409: '`no_billing_account` (no checkout yet)', ...notConfigured },
    },
    async ({ ctx }) => openPortal(ctx),
  );
}
