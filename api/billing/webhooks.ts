import type { ModuleMount } from '../http/mount';
import { receiveStripeWebhook } from '../../domain/billing/receiveStripeWebhook';
import { WebhookReceiptView } from './views';
import { postWebhooksStripe } from './webhooks.docs';

/** POST /api/webhooks/stripe: the payment provider's events, signed, stored, applied by a worker. */
export function stripeWebhookRoutes({ routes }: ModuleMount): void {
  routes('Webhooks').post(
    '/api/webhooks/stripe',
    {
      summary: 'Stripe webhook',
      description: postWebhooksStripe,
      access: 'public',
      rawBody: { type: '*/*', limit: '512kb' },
      response: WebhookReceiptView,
      errors: {
        400: '`invalid_payload` (signed, but not a Stripe event)',
        403: '`signature_invalid`',
        503: '`webhook_not_configured` (STRIPE_WEBHOOK_SECRET is unset; Stripe retries later)',
      },
    },
    async ({ services, req }) => {
      const receipt = await receiveStripeWebhook(services, {
        rawBody: Buffer.isBuffer(req.body) ? req.body : undefined,
        signature: req.get('stripe-signature'),
      });
      return receipt === 'ignored'
        ? { received: false }
        : { received: true, ...(receipt === 'duplicate' ? { duplicate: true } : {}) };
    },
  );
}
