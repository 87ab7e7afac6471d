import type { Quote } from '../../../../entities/core/quote';
import { notFound } from '../../../../lib/errors';
import type { Services } from '../../../services';
import { quotePdfOf } from './getQuote';
import { verifyQuoteToken } from './links';
import { quoteOfAnyTenant } from './store';

/** The quote a signed link names (404 for a bad token, and for a draft: a link is only ever mailed once sent). */
export async function readPublicQuote(services: Services, token: string): Promise<Quote> {
  const id = verifyQuoteToken(services, token);
  const quote = id ? await quoteOfAnyTenant(services.orm.em.fork(), id) : null;
  if (!quote || quote.status === 'draft') throw notFound('Quote');
  return quote;
}

export async function readPublicQuotePdf(
  services: Services,
  token: string,
): Promise<{ quote: Quote; pdf: Uint8Array }> {
  const quote = await readPublicQuote(services, token);
  return { quote, pdf: await quotePdfOf(quote) };
}
