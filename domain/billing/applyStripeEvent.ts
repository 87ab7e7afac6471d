import type Stripe from 'stripe';
import type { Em } from '../../lib/db';
import { StripeEvent, type StripeEventOutcome } from '../../entities/billing/stripeEvent';
import type { Subscription } from '../../entities/billing/subscription';
import { audit } from '../platform/audit';
import { isInvoiceCheckout, recordOnlinePayment } from '../core/invoices/payLinks/recordOnlinePayment';
import type { Services } from '../services';
import { unlessMissing } from './payments';
import { redeemPromotion } from './redeemPromotion';
import { lockStripeEvent, lockSubscriptionWhere, subscriptionEndRecorded } from './store';
import { isTrialRunning } from './subscription';
import { endPaidSubscription, hasEnded, stripeId, syncStripeSubscription } from './syncStripeSubscription';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Owner {
  /** From our metadata / client_reference_id: the most direct link. */
  tenantId?: string | null;
  subscriptionId?: string | null;
  customerId?: string | null;
}

/** The organisation a Stripe object belongs to, its subscription row locked: by tenant id, then subscription id, then customer id. */
async function findSubscription(em: Em, owner: Owner): Promise<Subscription | null> {
  const lookups = [
    owner.tenantId && UUID.test(owner.tenantId) ? { tenantId: owner.tenantId } : null,
    owner.subscriptionId ? { stripeSubscriptionId: owner.subscriptionId } : null,
    owner.customerId ? { stripeCustomerId: owner.customerId } : null,
  ];
  for (const where of lookups) {
    const sub = where && (await lockSubscriptionWhere(em, where));
    if (sub) return sub;
  }
  return null;
}

/** Subscription snapshots are ordered by the event's `created`: one older than the last applied never wins. */
const isStale = (sub: Subscription, at: Date) => !!sub.stripeEventAt && at < sub.stripeEventAt;

interface Applied {
  tenantId: string | null;
  outcome: StripeEventOutcome;
  /** Work of the module that applied it, once the transaction committed. */
  after?: () => Promise<void>;
}

type Handler = (
  em: Em,
  event: Stripe.Event,
  at: Date,
  services: Services,
  current?: Stripe.Subscription,
) => Promise<Applied>;

/**
 * One subscription per organisation. When a checkout completes while the organisation has another live
 * subscription (two checkouts paid: one opened before open checkouts were expired, or one racing the expiry),
 * the newer one, created last at Stripe, is kept (the checkout just completed, in whichever order the two
 * events are applied) and the other is cancelled at once, its unused time credited to the customer's balance
 * (prorated and invoiced now), which pays the next invoices of the one kept. Answers the id kept. Inside the
 * event's transaction: a failure rolls the event back to be retried, and cancelling again a subscription
 * already cancelled is done (Stripe answers resource_missing).
 */
async function keepOneSubscription(
  stripe: Stripe,
  previousId: string,
  completed: Stripe.Subscription,
): Promise<string> {
  const previous = await stripe.subscriptions.retrieve(previousId).catch(unlessMissing);
  if (!previous || hasEnded(previous)) return completed.id;
  if (hasEnded(completed)) return previousId;
  const [kept, superseded] =
    completed.created >= previous.created ? [completed.id, previousId] : [previousId, completed.id];
  await stripe.subscriptions.cancel(superseded, { invoice_now: true, prorate: true }).catch(unlessMissing);
  return kept;
}

/**
 * checkout.session.completed: links the customer and subscription to the organisation (keeping one
 * subscription: keepOneSubscription), counts the promotion, and applies the subscription's current state when
 * it could be fetched.
 */
const checkoutCompleted: Handler = async (em, event, at, services, current) => {
  const session = (event as Stripe.CheckoutSessionCompletedEvent).data.object;
  const sub =
    session.mode === 'subscription'
      ? await findSubscription(em, {
          tenantId: session.client_reference_id ?? session.metadata?.tenantId,
          customerId: stripeId(session.customer),
        })
      : null;
  if (!sub) return { tenantId: null, outcome: 'ignored' };
  if (sub.stripeCheckoutSessionId === session.id) sub.stripeCheckoutSessionId = null;
  const promotionId = session.metadata?.promotionId;
  if (promotionId && UUID.test(promotionId) && !(await redeemPromotion(em, promotionId, at))) {
    services.logger.warn(
      { promotionId, checkoutSession: session.id },
      'checkout completed with a promotion exhausted or expired meanwhile; not counted',
    );
    audit(em, {
      action: 'billing.promotion_not_counted',
      tenantId: sub.tenantId,
      targetType: 'promotion',
      targetId: promotionId,
      data: { checkoutSession: session.id },
    });
  }
  sub.stripeCustomerId = stripeId(session.customer) ?? sub.stripeCustomerId;
  const completed = stripeId(session.subscription);
  const previous = sub.stripeSubscriptionId;
  if (completed && previous && previous !== completed) {
    if (!current || !services.payments) {
      services.logger.error(
        { tenantId: sub.tenantId, previous, completed },
        'a second subscription was paid and STRIPE_SECRET_KEY is unset: cancel one at Stripe by hand',
      );
      return { tenantId: sub.tenantId, outcome: 'ignored' };
    }
    if ((await keepOneSubscription(services.payments, previous, current)) === previous)
      return { tenantId: sub.tenantId, outcome: 'ignored' };
  }
  sub.stripeSubscriptionId = completed ?? previous;
  if (current) {
    await syncStripeSubscription(em, sub, current, services.logger);
    if (!isStale(sub, at)) sub.stripeEventAt = at;
  }
  return { tenantId: sub.tenantId, outcome: 'applied' };
};

/**
 * customer.subscription.created / updated / deleted: the subscription snapshot, unless older than the last one
 * applied. Only the organisation's current subscription changes its plan: another one (superseded, or older)
 * is ignored. An organisation without one takes the subscription of the event (it arrived before its checkout's),
 * unless that subscription has ended. Deletion is final: a snapshot of a subscription already recorded as ended
 * (subscriptionEndRecorded; an update of the same second delivered after the deletion, Stripe's
 * `created` having one-second resolution, may not link it again) is `stale`, whatever its time, and on equal times the ended state wins (an ended snapshot of
 * the same second as the last applied one still applies; a live one after it does not).
 */
const subscriptionChanged: Handler = async (em, event, at, services) => {
  const remote = (event as Stripe.CustomerSubscriptionUpdatedEvent).data.object;
  const sub = await findSubscription(em, {
    tenantId: remote.metadata?.tenantId,
    subscriptionId: remote.id,
    customerId: stripeId(remote.customer),
  });
  if (!sub) return { tenantId: null, outcome: 'ignored' };
  if (sub.stripeSubscriptionId && sub.stripeSubscriptionId !== remote.id)
    return { tenantId: sub.tenantId, outcome: 'ignored' };
  const ended = event.type === 'customer.subscription.deleted' || hasEnded(remote);
  if (isStale(sub, at)) return { tenantId: sub.tenantId, outcome: 'stale' };
  if (!ended && (await subscriptionEndRecorded(em, sub.tenantId, remote.id)))
    return { tenantId: sub.tenantId, outcome: 'stale' };
  if (ended) endPaidSubscription(sub);
  else await syncStripeSubscription(em, sub, remote, services.logger);
  sub.stripeEventAt = at;
  return { tenantId: sub.tenantId, outcome: 'applied' };
};

/** Where an invoice names its subscription under API versions before 2025-03-31.basil (now under `parent`). */
interface LegacyInvoice {
  subscription?: string | { id: string } | null;
  subscription_details?: { metadata?: Stripe.Metadata | null } | null;
}

/**
 * invoice.paid / invoice.payment_failed: the payment status of the current subscription (past_due <-> active).
 * They do not advance `stripeEventAt`, so the subscription snapshot sent around them still applies.
 */
const invoiceSettled: Handler = async (em, event, at) => {
  const invoice = (event as Stripe.InvoicePaidEvent | Stripe.InvoicePaymentFailedEvent).data.object as Stripe.Invoice &
    LegacyInvoice;
  // The payload follows the endpoint's pinned API version: the newer shape first, then the older fields.
  const details = invoice.parent?.subscription_details;
  const subscriptionId = stripeId(details?.subscription) ?? stripeId(invoice.subscription);
  const tenantId = details?.metadata?.tenantId ?? invoice.subscription_details?.metadata?.tenantId;
  const sub = subscriptionId
    ? await findSubscription(em, { tenantId, subscriptionId, customerId: stripeId(invoice.customer) })
    : null;
  if (!sub || sub.stripeSubscriptionId !== subscriptionId)
    return { tenantId: sub?.tenantId ?? null, outcome: 'ignored' };
  if (isStale(sub, at)) return { tenantId: sub.tenantId, outcome: 'stale' };
  if (event.type === 'invoice.paid' && sub.status === 'past_due')
    sub.status = isTrialRunning(sub) ? 'trialing' : 'active';
  if (event.type === 'invoice.payment_failed' && (sub.status === 'active' || sub.status === 'trialing'))
    sub.status = 'past_due';
  return { tenantId: sub.tenantId, outcome: 'applied' };
};

/**
 * checkout.session.completed / async_payment_succeeded of an invoice's payment link (metadata purpose
 * invoice_payment): invoicing records the payment (domain/core/invoices/payLinks/recordOnlinePayment.ts).
 */
const invoiceCheckoutPaid: Handler = (em, event, _at, services) =>
  recordOnlinePayment(em, services, (event as Stripe.CheckoutSessionCompletedEvent).data.object);

/** The events of invoices' payment links: the one webhook endpoint carries billing's and invoicing's checkouts. */
const invoiceCheckoutEvents: readonly string[] = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
];
const isInvoicePayment = (event: Stripe.Event) =>
  invoiceCheckoutEvents.includes(event.type) && isInvoiceCheckout(event.data.object as Stripe.Checkout.Session);

const handlers: Partial<Record<Stripe.Event.Type, Handler>> = {
  'checkout.session.completed': checkoutCompleted,
  'customer.subscription.created': subscriptionChanged,
  'customer.subscription.updated': subscriptionChanged,
  'customer.subscription.deleted': subscriptionChanged,
  'invoice.paid': invoiceSettled,
  'invoice.payment_failed': invoiceSettled,
};

/**
 * Applies one stored Stripe event, exactly once: the event row is locked and marked processed in the same
 * transaction as the change, so a retried or duplicated job finds it done. Checkouts of invoices' payment links
 * (metadata purpose invoice_payment) go to invoicing; other event types are recorded as `ignored`. The organisation's cached entitlements are invalidated after the commit (also when a retry
 * finds the event already applied, in case the first attempt failed right before invalidating).
 */
export async function applyStripeEvent(services: Services, eventId: string): Promise<Applied | null> {
  const em = services.orm.em.fork();
  const stored = await em.findOne(StripeEvent, { id: eventId });
  if (!stored) return null;
  const event = stored.payload as unknown as Stripe.Event;
  // Fetched before the transaction, so no row stays locked during a network call.
  const session = event.type === 'checkout.session.completed' ? event.data.object : null;
  const subscriptionId = session?.mode === 'subscription' ? stripeId(session.subscription) : null;
  const current =
    !stored.processedAt && subscriptionId && services.payments
      ? await services.payments.subscriptions.retrieve(subscriptionId)
      : undefined;

  const result = await em.transactional(async (tx) => {
    const row = await lockStripeEvent(tx, eventId);
    if (row.processedAt) return { tenantId: row.tenantId ?? null, outcome: row.outcome ?? 'ignored' };
    const handler = isInvoicePayment(event) ? invoiceCheckoutPaid : handlers[event.type];
    const applied = handler
      ? await handler(tx, event, row.created, services, current)
      : { tenantId: null, outcome: 'ignored' as const };
    row.processedAt = new Date();
    row.tenantId = applied.tenantId;
    row.outcome = applied.outcome;
    if (applied.outcome === 'applied')
      audit(tx, {
        action: 'billing.stripe_event_applied',
        tenantId: applied.tenantId,
        targetType: 'stripe_event',
        targetId: eventId.slice(0, 80),
        data: { type: event.type },
      });
    return applied;
  });
  await result.after?.();
  if (result.tenantId) await services.entitlements.invalidate(result.tenantId);
  return result;
}
