import type { ModuleMount } from '../http/mount';
import type { RateLimitRule } from '../http/rateLimit';
import { openCheckout } from '../../domain/billing/openCheckout';
import { openPortal } from '../../domain/billing/openPortal';
import { CheckoutBody } from './dtos';
import { CheckoutSessionView, EmbeddedCheckoutView, PortalView } from './views';
import { postCheckoutEmbeddedSession, postCheckoutPortal, postCheckoutSession } from './checkout.docs';

const perOrganisation: RateLimitRule[] = [{ name: 'checkout', limit: 20, by: (req) => req.auth?.tenantId }];
const notConfigured = {
  502: '`payment_provider_error` (Stripe refused the request)',
  503: '`payment_provider_not_configured` (STRIPE_SECRET_KEY is unset), `payment_provider_unavailable` (Stripe unreachable)',
};
const checkoutErrors = {
  409: '`subscription_exists` (use change-plan or the portal; also when the previous checkout was just paid), `plan_not_purchasable` or `addon_not_purchasable` (no Stripe price id)',
  ...notConfigured,
};

/** /api/checkout: Stripe Checkout (hosted or embedded) and the billing portal. */
export function checkoutRoutes({ routes }: ModuleMount): void {
  const r = routes('Billing: checkout');

  r.post(
    '/api/checkout/session',
    {
      summary: 'Open a hosted checkout',
      description: postCheckoutSession,
      access: 'user',
      permission: 'billing.manage',
      body: CheckoutBody,
      response: CheckoutSessionView,
      rateLimits: perOrganisation,
      errors: checkoutErrors,
    },
    async ({ ctx, body }) => {
      const session = await openCheckout(ctx, { ...body, mode: 'hosted' });
      return { id: session.id, url: session.url };
    },
  );

  r.post(
    '/api/checkout/embedded-session',
    {
      summary: 'Open an embedded checkout',
      description: postCheckoutEmbeddedSession,
      access: 'user',
      permission: 'billing.manage',
      body: CheckoutBody,
      response: EmbeddedCheckoutView,
      rateLimits: perOrganisation,
      errors: checkoutErrors,
    },
    async ({ ctx, body }) => {
      const session = await openCheckout(ctx, { ...body, mode: 'embedded' });
      return { id: session.id, clientSecret: session.clientSecret };
    },
  );

  r.post(
    '/api/checkout/portal',
    {
      summary: 'Open the billing portal',
      description: postCheckoutPortal,
      access: 'user',
      permission: 'billing.manage',
      response: PortalView,
      rateLimits: perOrganisation,
      errors: { 409: '`no_billing_account` (no checkout yet)', ...notConfigured },
    },
    async ({ ctx }) => openPortal(ctx),
  );
}
