import type { Invoice, InvoiceKind, InvoiceStatus } from '../../../entities/core/invoice';
import type { Lean } from '../../../lib/lean';
import { toPage, type Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { invoiceToday } from './lookup';
import { invoicesPage } from './store';

export interface ListInvoicesProps {
  kind?: InvoiceKind;
  status?: InvoiceStatus;
  customerId?: string;
  /** Only invoices with something outstanding after their due date. */
  overdue?: boolean;
  limit: number;
  cursor?: string;
}

/** The organisation's invoices and credit notes, newest first. */
export async function listInvoices(ctx: TenantContext, props: ListInvoicesProps): Promise<Page<Lean<Invoice>>> {
  const overdueBefore = props.overdue ? invoiceToday() : null;
  return toPage(
    await invoicesPage.all(
      ctx,
      props.kind ?? null,
      props.status ?? null,
      props.customerId ?? null,
      overdueBefore,
      props.cursor ?? null,
      props.limit + 1,
    ),
    props.limit,
  );
}
