import type { ModuleMount } from '../../http/mount';
import { created, noContent } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { convertQuote } from '../../../domain/core/invoices/quotes/convertQuote';
import { createQuote } from '../../../domain/core/invoices/quotes/createQuote';
import { deleteQuote } from '../../../domain/core/invoices/quotes/deleteQuote';
import { getQuote, getQuotePdf, quoteDetailOf } from '../../../domain/core/invoices/quotes/getQuote';
import { listQuotes } from '../../../domain/core/invoices/quotes/listQuotes';
import { sendQuote } from '../../../domain/core/invoices/quotes/sendQuote';
import { updateQuote } from '../../../domain/core/invoices/quotes/updateQuote';
import { ConvertQuoteBody, ListQuotesQuery, QuoteDraftBody, QuotePatchBody } from './quoteDtos';
import { QuotePageView, QuoteView } from './quoteViews';
import { InvoiceView } from './views';
import { convertQuoteDocs, createQuoteDocs, patchQuoteDocs, sendQuoteDocs } from './quotes.docs';

const fileName = (number: string | null | undefined) => `${(number ?? 'quote').replace(/[^A-Za-z0-9_.-]/g, '_')}.pdf`;

/** /api/quotes: drafts, send, PDF, conversion to invoices. Read: core.invoices.read; everything else: core.invoices.issue. */
export function quoteRoutes({ routes }: ModuleMount): void {
  const r = routes('Quotes');
  const read = { access: 'user', module: 'core', permission: 'core.invoices.read' } as const;
  const write = { access: 'user', module: 'core', permission: 'core.invoices.issue' } as const;

  r.get(
    '/api/quotes',
    {
      ...read,
      summary: 'List quotes',
      description: 'Newest first; filter by stored status or customer.',
      query: ListQuotesQuery,
      response: QuotePageView,
    },
    async ({ ctx, query }) => QuotePageView.from(await listQuotes(ctx, query)),
  );

  r.post(
    '/api/quotes',
    {
      ...write,
      summary: 'Create a draft quote',
      description: createQuoteDocs,
      body: QuoteDraftBody,
      response: QuoteView,
      status: 201,
      errors: {
        400: '`unknown_currency`, `currency_not_supported`, `validation_failed`',
        404: 'The customer or deal does not exist in this organisation',
        409: '`deal_not_won`',
      },
    },
    async ({ ctx, body }) => {
      const quote = await createQuote(ctx, body);
      return created(QuoteView.fromDetail(await quoteDetailOf(ctx, quote)), `/api/quotes/${quote.id}`);
    },
  );

  r.get(
    '/api/quotes/:id',
    {
      ...read,
      summary: 'Get a quote',
      description: "With lines, totals, the customer's answer, the invoices made from it and the signed link.",
      params: IdParams,
      response: QuoteView,
    },
    async ({ ctx, params }) => QuoteView.fromDetail(await getQuote(ctx, params.id)),
  );

  r.patch(
    '/api/quotes/:id',
    {
      ...write,
      summary: 'Change a draft quote',
      description: patchQuoteDocs,
      params: IdParams,
      body: QuotePatchBody,
      response: QuoteView,
      errors: { 409: '`quote_not_draft`' },
    },
    async ({ ctx, params, body }) =>
      QuoteView.fromDetail(await quoteDetailOf(ctx, await updateQuote(ctx, params.id, body))),
  );

  r.delete(
    '/api/quotes/:id',
    {
      ...write,
      summary: 'Delete a draft quote',
      description: 'Only a draft: a sent quote is kept (409 `quote_not_draft`; the database refuses it too).',
      params: IdParams,
      status: 204,
      errors: { 409: '`quote_not_draft`' },
    },
    async ({ ctx, params }) => {
      await deleteQuote(ctx, params.id);
      return noContent();
    },
  );

  r.post(
    '/api/quotes/:id/send',
    {
      ...write,
      summary: 'Number and mail a quote',
      description: sendQuoteDocs,
      params: IdParams,
      response: QuoteView,
      errors: { 409: '`quote_not_draft`, `quote_expired`, `quote_no_recipient`, `quote_number_taken`' },
    },
    async ({ ctx, params }) => QuoteView.fromDetail(await quoteDetailOf(ctx, await sendQuote(ctx, params.id))),
  );

  r.get(
    '/api/quotes/:id/pdf',
    {
      ...read,
      summary: 'Quote PDF',
      description: 'The PDF of a sent quote. 409 `quote_not_sent` for a draft.',
      params: IdParams,
      response: { description: 'The PDF: its bytes', content: { 'application/pdf': {} } },
      errors: { 409: '`quote_not_sent`' },
    },
    async ({ ctx, params, res }) => {
      const { quote, pdf } = await getQuotePdf(ctx, params.id);
      res
        .type('application/pdf')
        .set('Content-Disposition', `inline; filename="${fileName(quote.number)}"`)
        .send(Buffer.from(pdf));
    },
  );

  r.post(
    '/api/quotes/:id/convert',
    {
      ...write,
      summary: 'Invoice an accepted quote',
      description: convertQuoteDocs,
      params: IdParams,
      body: ConvertQuoteBody,
      response: InvoiceView,
      status: 201,
      errors: {
        409: '`quote_not_accepted`, `quote_already_converted`, `quote_no_deposit`, `deposit_not_issued`, `quote_nothing_left`',
      },
    },
    async ({ ctx, params, body }) => {
      const invoice = await convertQuote(ctx, params.id, body);
      return created(InvoiceView.fromDetail({ invoice, payments: [], related: [] }), `/api/invoices/${invoice.id}`);
    },
  );
}
