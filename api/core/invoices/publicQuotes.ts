import type { Request, Response } from 'express';
import type { ModuleMount } from '../../http/mount';
import type { RateLimitRule } from '../../http/rateLimit';
import { respondToQuote } from '../../../domain/core/invoices/quotes/respondToQuote';
import { readPublicQuote, readPublicQuotePdf } from '../../../domain/core/invoices/quotes/readPublicQuote';
import { QuoteAnswerBody, QuoteDeclineBody, QuoteTokenQuery } from './quoteDtos';
import { PublicQuoteView } from './quoteViews';
import { answerQuoteDocs, publicQuoteDocs } from './quotes.docs';

const P = '/api/public/quotes';
const noStore = (res: Response) => res.set('Cache-Control', 'no-store');
const from = (req: Request) => ({ ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null });

/** The customer's side of a quote, through the signed link of its mail: read, PDF, accept, decline. No account. */
export function publicQuoteRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Quotes (customer link)');
  const limits: RateLimitRule[] = [{ name: 'quote-link', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }];
  const pub = { access: 'public', rateLimits: limits } as const;

  r.get(
    P,
    {
      ...pub,
      summary: 'A quote, as its customer sees it',
      description: publicQuoteDocs,
      query: QuoteTokenQuery,
      response: PublicQuoteView,
      errors: { 404: 'Unknown or forged token' },
    },
    async ({ res, query }) => {
      noStore(res);
      return PublicQuoteView.from(await readPublicQuote(services, query.token));
    },
  );

  r.get(
    `${P}/pdf`,
    {
      ...pub,
      summary: "A quote's PDF, for its customer",
      description: 'The PDF of the quote the signed token names. 404 for a bad token.',
      query: QuoteTokenQuery,
      response: { description: 'The PDF: its bytes', content: { 'application/pdf': {} } },
      errors: { 404: 'Unknown or forged token' },
    },
    async ({ res, query }) => {
      const { quote, pdf } = await readPublicQuotePdf(services, query.token);
      noStore(res);
      res
        .type('application/pdf')
        .set(
          'Content-Disposition',
          `inline; filename="${(quote.number ?? 'quote').replace(/[^A-Za-z0-9_.-]/g, '_')}.pdf"`,
        )
        .send(Buffer.from(pdf));
    },
  );

  r.post(
    `${P}/accept`,
    {
      ...pub,
      summary: 'Accept a quote (customer link)',
      description: answerQuoteDocs,
      body: QuoteAnswerBody,
      response: PublicQuoteView,
      errors: { 404: 'Unknown or forged token', 409: '`quote_already_answered`, `quote_expired`, `quote_not_sent`' },
    },
    async ({ req, res, body }) => {
      noStore(res);
      const quote = await respondToQuote(services, body.token, { answer: 'accepted', name: body.name, ...from(req) });
      return PublicQuoteView.from(quote);
    },
  );

  r.post(
    `${P}/decline`,
    {
      ...pub,
      summary: 'Decline a quote (customer link)',
      description: `${answerQuoteDocs} An optional reason goes with it.`,
      body: QuoteDeclineBody,
      response: PublicQuoteView,
      errors: { 404: 'Unknown or forged token', 409: '`quote_already_answered`, `quote_expired`, `quote_not_sent`' },
    },
    async ({ req, res, body }) => {
      noStore(res);
      const quote = await respondToQuote(services, body.token, {
        answer: 'declined',
        name: body.name,
        ...(body.reason ? { reason: body.reason } : {}),
        ...from(req),
      });
      return PublicQuoteView.from(quote);
    },
  );
}
