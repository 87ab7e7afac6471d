import { defineQueue } from './define';

/** One verified Stripe event to apply; the payload is the stored stripe_events row. Job id: stripe.<event id>. */
export interface StripeEventJob {
  eventId: string;
}

/** The clock's sweep of trials past their end. Job id: the clock slot. */
export interface TrialExpiryJob {
  slot: string;
}

export const stripeEventsQueue = defineQueue<StripeEventJob>('stripe-events', { defaults: { attempts: 10 } });
export const trialExpiryQueue = defineQueue<TrialExpiryJob>('trial-expiry', {
  concurrency: 1,
  defaults: { attempts: 3 },
});
