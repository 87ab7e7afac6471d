import { LockMode } from '@mikro-orm/core';
import { Quote, QuoteInvoice, type QuoteInvoiceKind } from '../../../../entities/core/quote';
import type { Em } from '../../../../lib/db';
import { notFound } from '../../../../lib/errors';
import { lean } from '../../../../lib/lean';

/** The statements of quotes. No rule here: the use cases decide. */

/** The quote of the em's organisation, or 404. `lock` takes its row lock (inside a transaction). */
export async function findQuote(em: Em, id: string, options: { lock?: boolean } = {}): Promise<Quote> {
  const quote = await em.findOne(Quote, { id }, options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!quote) throw notFound('Quote');
  return quote;
}

/** A quote of any organisation (the customer's signed link carries no organisation), or null. */
export const quoteOfAnyTenant = (em: Em, id: string): Promise<Quote | null> =>
  em.findOne(Quote, { id }, { filters: false });

/** $1 status, $2 customer, $3 cursor, $4 limit; newest first. */
export const quotesPage = lean(Quote, {
  where: `($1::text is null or status = $1) and ($2::uuid is null or customer_id = $2) and ($3::uuid is null or id < $3)`,
  orderBy: 'id desc',
  limitParam: '$4',
});

/** The invoices made from a quote, oldest first. */
export const invoicesOfQuote = (em: Em, quoteId: string) =>
  em.find(QuoteInvoice, { quoteId }, { orderBy: { createdAt: 'asc', id: 'asc' } });

export const quoteInvoiceOfKind = (em: Em, quoteId: string, kind: QuoteInvoiceKind) =>
  em.findOne(QuoteInvoice, { quoteId, kind });

/**
 * Increments the organisation's quote counter of a year (made at 1 on first use) and returns it. The upsert holds
 * the counter row's lock until the calling transaction ends: senders wait for each other, a rollback gives it back.
 */
export async function nextQuoteSequenceNo(em: Em, tenantId: string, year: number): Promise<number> {
  const [row] = await em.execute<{ last_no: number }[]>(
    `insert into inv_quote_sequences (tenant_id, year, last_no) values (?, ?, 1)
     on conflict (tenant_id, year) do update set last_no = inv_quote_sequences.last_no + 1 returning last_no`,
    [tenantId, year],
  );
  return Number(row.last_no);
}

export const quoteNumberTaken = async (em: Em, number: string): Promise<boolean> =>
  (await em.count(Quote, { number })) > 0;

/** A customer's sent quotes for the CRM timeline, newest first, keyset (sentAt, id) < before. */
export async function sentQuotesOfCustomer(
  em: Em,
  customerId: string,
  query: { before: { at: Date; id: string }; from?: Date; limit: number },
): Promise<Quote[]> {
  const rows = await em.find(
    Quote,
    { customerId, sentAt: { $lt: query.before.at, ...(query.from ? { $gte: query.from } : {}) } },
    { orderBy: { sentAt: 'desc', id: 'desc' }, limit: query.limit },
  );
  const sameInstant = await em.find(
    Quote,
    { customerId, sentAt: query.before.at, id: { $lt: query.before.id } },
    { orderBy: { id: 'desc' }, limit: query.limit },
  );
  return [...sameInstant, ...rows].slice(0, query.limit);
}
