import type Stripe from 'stripe';
import { badRequest, forbidden, unavailable } from '../../lib/errors';
import { stripeSdk } from '../../lib/payments';
import { stripeEventsQueue } from '../../queues/billing';
import type { Services } from '../services';
import { storablePayload } from '../../lib/json';
import { redriveJob } from '../jobs/redriveJob';
import { insertStripeEvent, stripeEventProcessedAt } from './store';

export interface ReceiveStripeWebhookProps {
  /** The request body exactly as received: the signature covers these bytes. */
  rawBody: Buffer | undefined;
  /** The Stripe-Signature header. */
  signature: string | undefined;
}

export type WebhookReceipt = 'ignored' | 'stored' | 'duplicate';

/** BullMQ job ids may not contain ':'; Stripe event ids are evt_... anyway. */
export const stripeEventJobId = (eventId: string) => `stripe.${eventId.replace(/:/g, '.')}`;

/**
 * Accepts a Stripe webhook delivery: no signature header -> `ignored` (unknown source, nothing stored);
 * a bad signature -> 403 `signature_invalid`; otherwise the event is stored by its id and a job enqueued
 * (`stored`). A replay of a stored id makes no new row and no second job (the job id is derived from the event
 * id). It is `duplicate` (nothing new done) when the event was processed, or its job is still waiting or
 * running (or missing: added again); an unprocessed event whose job failed for good (attempts exhausted) is
 * offered again (offerAgain) and answered `stored`, so a redelivery applies it once Stripe or the database answers again.
 * Applying stays exactly once (applyStripeEvent locks the row and skips it once processed). Text jsonb cannot
 * hold (\u0000, unpaired surrogates) is dropped or replaced in the stored event (storablePayload).
 */
export async function receiveStripeWebhook(
  services: Services,
  props: ReceiveStripeWebhookProps,
): Promise<WebhookReceipt> {
  if (!props.signature) return 'ignored';
  const secret = services.config.STRIPE_WEBHOOK_SECRET;
  if (!secret)
    throw unavailable(
      'webhook_not_configured',
      'Stripe webhooks are not configured on this server (STRIPE_WEBHOOK_SECRET is unset)',
    );
  let event: Stripe.Event;
  const { webhooks, errors } = stripeSdk();
  const body = props.rawBody ?? Buffer.alloc(0);
  try {
    event = storablePayload(webhooks.constructEvent(body, props.signature, secret), body.toString('utf8'));
  } catch (err) {
    if (err instanceof errors.StripeSignatureVerificationError)
      throw forbidden('signature_invalid', 'The Stripe-Signature header does not match the request body');
    throw badRequest('invalid_payload', 'The webhook body is not a Stripe event');
  }

  const em = services.orm.em.fork();
  const fresh = await insertStripeEvent(em, event);
  if (!fresh && (await stripeEventProcessedAt(em, event.id))) return 'duplicate';
  if (fresh) {
    await services.queues.add(stripeEventsQueue, { eventId: event.id }, { jobId: stripeEventJobId(event.id) });
    return 'stored';
  }
  return (await offerAgain(services, event.id)) ? 'stored' : 'duplicate';
}

/**
 * Offers a stored, unprocessed event to the worker again under its fixed job id (domain/jobs/redriveJob.ts);
 * answers whether a job that had finished was put back: one that failed for good is retried with its attempts
 * reset, a completed one (its event unprocessed, or processed since it was read: applying again is then a no-op)
 * added again. False: its job is waiting, delayed or running, or had to be added (missing, as while the delivery
 * that stored the row has not enqueued it yet, or removed).
 */
async function offerAgain(services: Services, eventId: string): Promise<boolean> {
  const outcome = await redriveJob(services, stripeEventsQueue, stripeEventJobId(eventId), { eventId }, () => true);
  return outcome === 'retried' || outcome === 'readded';
}
