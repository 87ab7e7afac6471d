import type { Quote } from '../../../../entities/core/quote';
import { conflict } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { quotePatchFields, type QuoteDraftProps } from './draft';
import { findQuote } from './store';

export const quoteNotDraft = (quote: Quote) =>
  conflict('quote_not_draft', `Quote ${quote.number} is sent: it can no longer be changed`);

/** Changes the fields a PATCH names, only while draft (409 quote_not_draft; the database refuses it too). */
export async function updateQuote(ctx: TenantContext, id: string, props: Partial<QuoteDraftProps>): Promise<Quote> {
  return ctx.em.transactional(async (em) => {
    const quote = await findQuote(em, id, { lock: true });
    if (quote.status !== 'draft') throw quoteNotDraft(quote);
    em.assign(quote, quotePatchFields(props));
    return quote;
  });
}
