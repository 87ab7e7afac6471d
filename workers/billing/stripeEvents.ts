import { applyStripeEvent } from '../../domain/billing/applyStripeEvent';
import { stripeEventsQueue } from '../../queues/billing';
import { defineProcessor } from '../define';

/** Applies a stored Stripe event (idempotent: the event row records that it was processed). */
export const stripeEventsProcessor = defineProcessor(stripeEventsQueue, {
  async perform({ eventId }, { services }) {
    return applyStripeEvent(services, eventId);
  },
  async onFailed({ eventId }, error, { services }) {
    services.logger.error(
      { eventId, err: error.message },
      'Stripe event could not be applied; it stays unprocessed in stripe_events and can be retried from the queue dashboard',
    );
  },
});
