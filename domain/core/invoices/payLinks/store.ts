import { InvoicePaymentLink } from '../../../../entities/core/receivables';
import { newId } from '../../../../entities/base';
import type { Em } from '../../../../lib/db';

/** The statements of payment links and online payments. No rule here: the use cases decide. */

/**
 * Serialises the openings of an invoice's payment link until the transaction ends: the second of two concurrent
 * openings waits for the first to store its session, then reuses it (Stripe's idempotency keys do not cover
 * requests in flight at once: the second is refused with idempotency_key_in_use).
 */
export const lockInvoiceLinks = (tx: Em, invoiceId: string) =>
  tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`inv_payment_links:${invoiceId}`]);

/** The newest stored link of an invoice for this amount that stays open past `openUntil`, or null. */
export const reusableLink = (em: Em, invoiceId: string, amountCents: number, openUntil: Date) =>
  em.findOne(
    InvoicePaymentLink,
    { invoiceId, amountCents, expiresAt: { $gt: openUntil } },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );

/** How many links were opened for an invoice (numbers the idempotency key of the next one). */
export const linksOpened = (em: Em, invoiceId: string) => em.count(InvoicePaymentLink, { invoiceId });

/** Stores a link unless its session is stored already (two concurrent openings got the same session). */
export async function storeLink(
  em: Em,
  link: Pick<
    InvoicePaymentLink,
    'tenantId' | 'invoiceId' | 'sessionId' | 'url' | 'amountCents' | 'currency' | 'expiresAt'
  >,
): Promise<void> {
  await em.execute(
    `insert into inv_payment_links (id, tenant_id, created_at, invoice_id, session_id, url, amount_cents, currency, expires_at)
     values (?, ?, now(), ?, ?, ?, ?, ?, ?) on conflict (tenant_id, session_id) do nothing`,
    [newId(), link.tenantId, link.invoiceId, link.sessionId, link.url, link.amountCents, link.currency, link.expiresAt],
  );
}

/**
 * Inserts an online payment unless one with this provider reference exists (the unique key decides: a replayed
 * webhook, or two deliveries at once, insert one row). True when this call inserted it.
 */
export async function claimOnlinePayment(
  em: Em,
  row: {
    tenantId: string;
    invoiceId: string;
    amountCents: number;
    paidOn: string;
    reference: string;
    providerReference: string;
  },
): Promise<boolean> {
  const inserted = await em.execute<{ id: string }[]>(
    `insert into inv_payments (id, tenant_id, created_at, invoice_id, amount_cents, paid_on, method, reference, provider_reference, recorded_by)
     values (?, ?, now(), ?, ?, ?, 'card', ?, ?, null) on conflict (tenant_id, provider_reference) do nothing returning id`,
    [newId(), row.tenantId, row.invoiceId, row.amountCents, row.paidOn, row.reference, row.providerReference],
  );
  return inserted.length > 0;
}

/** Whether a payment with this provider reference is recorded. */
export async function paymentRecorded(em: Em, tenantId: string, providerReference: string): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>(
    'select id from inv_payments where tenant_id = ? and provider_reference = ? limit 1',
    [tenantId, providerReference],
  );
  return rows.length > 0;
}
