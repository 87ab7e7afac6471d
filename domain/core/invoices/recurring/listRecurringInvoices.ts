import type { RecurringInvoice, RecurringStatus } from '../../../../entities/core/recurringInvoice';
import type { Lean } from '../../../../lib/lean';
import { toPage, type Page } from '../../../../lib/pagination';
import type { TenantContext } from '../../../context';
import { schedulesPage } from './store';

export interface ListRecurringInvoicesProps {
  status?: RecurringStatus;
  customerId?: string;
  limit: number;
  cursor?: string;
}

/** The organisation's recurring invoices, newest first. */
export async function listRecurringInvoices(
  ctx: TenantContext,
  props: ListRecurringInvoicesProps,
): Promise<Page<Lean<RecurringInvoice>>> {
  return toPage(
    await schedulesPage.all(ctx, props.status ?? null, props.customerId ?? null, props.cursor ?? null, props.limit + 1),
    props.limit,
  );
}
