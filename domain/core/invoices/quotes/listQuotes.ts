import type { Quote, QuoteStatus } from '../../../../entities/core/quote';
import type { Lean } from '../../../../lib/lean';
import { toPage, type Page } from '../../../../lib/pagination';
import type { TenantContext } from '../../../context';
import { quotesPage } from './store';

export interface ListQuotesProps {
  status?: QuoteStatus;
  customerId?: string;
  limit: number;
  cursor?: string;
}

/** The organisation's quotes, newest first. */
export async function listQuotes(ctx: TenantContext, props: ListQuotesProps): Promise<Page<Lean<Quote>>> {
  return toPage(
    await quotesPage.all(ctx, props.status ?? null, props.customerId ?? null, props.cursor ?? null, props.limit + 1),
    props.limit,
  );
}
