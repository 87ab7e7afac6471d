import { LockMode } from '@mikro-orm/core';
import type Stripe from 'stripe';
import { Invoice } from '../../../../entities/core/invoice';
import type { Em } from '../../../../lib/db';
import { audit } from '../../../platform/audit';
import type { Services } from '../../../services';
import { emitEvent } from '../../../webhooks/emitEvent';
import { invoiceData } from '../../../webhooks/payloads';
import { notify } from '../../../notifications/notify';
import { enqueueStaged } from '../../../jobs/stageJob';
import { emitCollected } from '../lifecycle/emitCollected';
import { fromStripeAmount } from '../currencies';
import { invoiceToday } from '../lookup';
import { outstandingOf, settlementStatus } from '../settlement';
import { INVOICE_PAYMENT_PURPOSE } from './payable';
import { claimOnlinePayment, paymentRecorded } from './store';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OnlinePaymentOutcome {
  tenantId: string | null;
  outcome: 'applied' | 'ignored';
  /** What to do once the transaction committed (staged jobs, hub notification). */
  after?: () => Promise<void>;
}

/** Whether a Checkout Session is an invoice's payment link (its metadata says so; billing's checkouts say nothing). */
export const isInvoiceCheckout = (session: Pick<Stripe.Checkout.Session, 'metadata'>): boolean =>
  session.metadata?.purpose === INVOICE_PAYMENT_PURPOSE;

/**
 * A Checkout Session of a payment link was paid (checkout.session.completed with payment_status paid, or
 * checkout.session.async_payment_succeeded): records the payment on the invoice its metadata names, in `tx` (the
 * Stripe event's transaction), exactly once: the payment carries `stripe:<session id>` as provider reference, unique
 * per organisation, and is inserted unless it exists (a replayed webhook, two deliveries at once, the two events
 * of one session: one payment). The amount Stripe collected is recorded up to what is outstanding (a payment
 * recorded by hand meanwhile); any excess, or a payment arriving when nothing is outstanding, is audited
 * (`core.invoice.online_payment_excess`) for a refund. Then as recordPayment: paidCents and status, the audit
 * entry, `invoice.paid` for the organisation's webhooks, "Encaissée" for a submitted invoice, the hub
 * notification; reminders stop with the invoice paid. An unpaid session (an async method still pending) or an
 * unknown invoice is `ignored`.
 */
export async function recordOnlinePayment(
  tx: Em,
  services: Services,
  session: Stripe.Checkout.Session,
): Promise<OnlinePaymentOutcome> {
  const invoiceId = session.metadata?.invoiceId;
  if (!invoiceId || !UUID.test(invoiceId)) return { tenantId: null, outcome: 'ignored' };
  const invoice = await tx.findOne(
    Invoice,
    { id: invoiceId },
    { filters: false, lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  if (!invoice || invoice.kind !== 'invoice' || invoice.status === 'draft')
    return { tenantId: invoice?.tenantId ?? null, outcome: 'ignored' };
  const tenantId = invoice.tenantId;
  tx.setFilterParams('tenant', { tenantId });
  if (session.payment_status !== 'paid') return { tenantId, outcome: 'ignored' };

  const providerReference = `stripe:${session.id}`;
  // Under the invoice's lock the check is exact; the unique key holds it anyway.
  if (await paymentRecorded(tx, tenantId, providerReference)) return { tenantId, outcome: 'ignored' };
  const sameCurrency = (session.currency ?? '').toUpperCase() === invoice.currency;
  // Stripe's amount in the invoice currency's ISO minor units (they differ for ISK and MGA: currencies.ts).
  const collectedCents = sameCurrency
    ? fromStripeAmount(session.amount_total ?? 0, invoice.currency)
    : (session.amount_total ?? 0);
  const amountCents = sameCurrency ? Math.min(collectedCents, outstandingOf(invoice)) : 0;
  const reference = (typeof session.payment_intent === 'string' ? session.payment_intent : session.id).slice(0, 140);
  if (amountCents > 0) {
    const claimed = await claimOnlinePayment(tx, {
      tenantId,
      invoiceId: invoice.id,
      amountCents,
      paidOn: invoiceToday(),
      reference,
      providerReference,
    });
    if (!claimed) return { tenantId, outcome: 'ignored' };
  }
  if (amountCents < collectedCents)
    audit(tx, {
      action: 'core.invoice.online_payment_excess',
      tenantId,
      targetType: 'invoice',
      targetId: invoice.id,
      data: { session: session.id, collectedCents, recordedCents: amountCents, currency: session.currency },
    });
  if (amountCents === 0) return { tenantId, outcome: 'applied' };

  invoice.paidCents += amountCents;
  invoice.status = settlementStatus(invoice);
  audit(tx, {
    action: 'core.invoice.payment_recorded',
    tenantId,
    targetType: 'invoice',
    targetId: invoice.id,
    data: { amountCents, method: 'card', online: true },
  });
  if (invoice.status === 'paid') emitEvent(tx, tenantId, 'invoice.paid', invoiceData(invoice));
  const collected = await emitCollected(tx, tenantId, invoice);
  const { paidCents, status, customerId } = invoice;
  return {
    tenantId,
    outcome: 'applied',
    after: async () => {
      if (collected) await enqueueStaged(services, [collected]);
      await notify(services, 'core', [
        {
          event: 'invoice.payment_recorded',
          tenantId,
          subject: { invoiceId: invoice.id, customerId },
          data: { amountCents, paidCents, status },
        },
      ]);
    },
  };
}
