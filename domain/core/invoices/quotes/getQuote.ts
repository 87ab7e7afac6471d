import type { Quote, QuoteInvoice } from '../../../../entities/core/quote';
import { conflict } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { quoteLink } from './links';
import { renderQuotePdf } from './quotePdf';
import { findQuote, invoicesOfQuote } from './store';

export interface QuoteDetail {
  quote: Quote;
  /** Invoices made from it (full, or deposit then balance). */
  invoices: QuoteInvoice[];
  /** The customer's signed link once sent. */
  customerLink: string | null;
}

/** The detail of a quote; also answers writes, after their transaction. */
export async function quoteDetailOf(ctx: TenantContext, quote: Quote): Promise<QuoteDetail> {
  return {
    quote,
    invoices: await invoicesOfQuote(ctx.em, quote.id),
    customerLink: quote.status === 'draft' ? null : quoteLink(ctx.services, quote.id),
  };
}

export async function getQuote(ctx: TenantContext, id: string): Promise<QuoteDetail> {
  return quoteDetailOf(ctx, await findQuote(ctx.em, id));
}

/** The PDF of a sent quote (409 quote_not_sent for a draft). */
export async function quotePdfOf(quote: Quote): Promise<Uint8Array> {
  if (quote.status === 'draft') throw conflict('quote_not_sent', 'A draft has no PDF: send it first');
  return renderQuotePdf(quote);
}

export async function getQuotePdf(ctx: TenantContext, id: string): Promise<{ quote: Quote; pdf: Uint8Array }> {
  const quote = await findQuote(ctx.em, id);
  return { quote, pdf: await quotePdfOf(quote) };
}
