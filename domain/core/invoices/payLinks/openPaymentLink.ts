import type Stripe from 'stripe';
import { conflict } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { callStripe, requirePayments } from '../../../billing/payments';
import { readAccountingSettings } from '../accounting/accountingSettings';
import { invoiceLink } from '../customerLinks';
import { stripeAmount } from '../currencies';
import { findInvoice } from '../store';
import { INVOICE_PAYMENT_PURPOSE, payableAmount } from './payable';
import { linksOpened, lockInvoiceLinks, reusableLink, storeLink } from './store';

export interface PaymentLink {
  /** The hosted payment page (Stripe Checkout). */
  url: string;
  amountCents: number;
  currency: string;
  expiresAt: Date;
}

/** A stored session is reused while it stays open this long after the request (time to pay). */
const REUSE_MARGIN_MS = 30 * 60_000;

const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

export const onlinePaymentDisabled = () =>
  conflict(
    'online_payment_disabled',
    'Online payment is not enabled for this organisation (accounting settings: onlinePaymentEnabled)',
  );

/**
 * The hosted payment page of an issued, unpaid invoice: a Stripe Checkout Session (mode payment) for what is
 * outstanding, in the invoice's currency and Stripe's minor units for it (stripeAmount), its metadata naming the invoice (`invoiceId`, `purpose`
 * invoice_payment: never the organisation). The session still open for the same amount is reused; otherwise one
 * is created under an idempotency key numbered by the links opened before (`invoice-payment.<invoice>.<n>.<amount>`:
 * a retried call gets the same session), one opening at a time per invoice, so concurrent openings get one session. 409 `online_payment_disabled` unless the organisation
 * enabled online payment, and for what cannot be paid (payableAmount); then 503 without STRIPE_SECRET_KEY.
 */
export async function openPaymentLink(ctx: TenantContext, invoiceId: string): Promise<PaymentLink> {
  const invoice = await findInvoice(ctx.em, invoiceId);
  const settings = await readAccountingSettings(ctx.em, ctx.tenantId);
  if (!settings.onlinePaymentEnabled) throw onlinePaymentDisabled();
  const amountCents = payableAmount(invoice);
  // Stripe's minor units for the currency (ISK ×100, MGA in whole ariary: currencies.ts); 409 when not chargeable.
  const unitAmount = stripeAmount(amountCents, invoice.currency);
  requirePayments(ctx.services);
  // One opening at a time per invoice (lockInvoiceLinks): a concurrent one waits, then reuses what this stores.
  return ctx.em.transactional(async (em) => {
    await lockInvoiceLinks(em, invoice.id);
    const open = await reusableLink(em, invoice.id, amountCents, new Date(Date.now() + REUSE_MARGIN_MS));
    if (open) return { url: open.url, amountCents, currency: open.currency, expiresAt: open.expiresAt };

    const n = await linksOpened(em, invoice.id);
    const back = invoiceLink(ctx.services, invoice.id);
    const metadata = { purpose: INVOICE_PAYMENT_PURPOSE, invoiceId: invoice.id, invoiceNumber: invoice.number! };
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: invoice.currency.toLowerCase(),
            unit_amount: unitAmount,
            product_data: { name: `Facture ${invoice.number}` },
          },
        },
      ],
      metadata,
      payment_intent_data: { metadata, description: `Facture ${invoice.number}` },
      ...(invoice.buyer?.email ? { customer_email: invoice.buyer.email } : {}),
      success_url: withQuery(back, 'payment=success'),
      cancel_url: withQuery(back, 'payment=cancelled'),
    };
    const session = await callStripe(ctx.services, (stripe) =>
      stripe.checkout.sessions.create(params, {
        idempotencyKey: `invoice-payment.${invoice.id}.${n}.${amountCents}`,
      }),
    );
    const link = {
      url: session.url!,
      amountCents,
      currency: invoice.currency,
      expiresAt: new Date(session.expires_at * 1000),
    };
    await storeLink(em, { tenantId: ctx.tenantId, invoiceId: invoice.id, sessionId: session.id, ...link });
    return link;
  });
}
