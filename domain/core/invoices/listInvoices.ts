import { Invoice, InvoicePayment, type InvoiceKind, type InvoiceStatus } from '../../../entities/core/invoice';
import { lean, type Lean } from '../../../lib/lean';
import { toPage, type Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { findInvoice, invoiceToday } from './lookup';

export interface ListInvoicesProps {
  kind?: InvoiceKind;
  status?: InvoiceStatus;
  customerId?: string;
  /** Only invoices with something outstanding after their due date. */
  overdue?: boolean;
  limit: number;
  cursor?: string;
}

// A lean statement (docs/database-path.md): every combination of filters is one prepared statement.
const invoicesPage = lean(Invoice, {
  where: `($1::text is null or kind = $1) and ($2::text is null or status = $2) and ($3::uuid is null or customer_id = $3)
    and ($4::date is null or (kind = 'invoice' and status in ('issued', 'partially_paid', 'partially_credited') and due_date < $4))
    and ($5::uuid is null or id < $5)`,
  orderBy: 'id desc',
  limitParam: '$6',
});

/** The organisation's invoices and credit notes, newest first. */
export async function listInvoices(ctx: TenantContext, props: ListInvoicesProps): Promise<Page<Lean<Invoice>>> {
  const overdueBefore = props.overdue ? invoiceToday() : null;
  return toPage(await invoicesPage.all(ctx, props.kind ?? null, props.status ?? null, props.customerId ?? null, overdueBefore, props.cursor ?? null, props.limit + 1), props.limit);
}

export interface InvoiceDetail {
  invoice: Invoice;
  payments: InvoicePayment[];
  /** Credit notes of an invoice; the credited invoice of a credit note. */
  related: Invoice[];
}

export async function getInvoice(ctx: TenantContext, id: string): Promise<InvoiceDetail> {
  const invoice = await findInvoice(ctx.em, id);
  return detailOf(ctx, invoice);
}

export async function detailOf(ctx: TenantContext, invoice: Invoice): Promise<InvoiceDetail> {
  if (invoice.kind === 'credit_note') return { invoice, payments: [], related: [await findInvoice(ctx.em, invoice.creditedInvoiceId!)] };
  const payments = await ctx.em.find(InvoicePayment, { invoiceId: invoice.id }, { orderBy: { id: 'asc' } });
  const related = await ctx.em.find(Invoice, { creditedInvoiceId: invoice.id }, { orderBy: { id: 'asc' } });
  return { invoice, payments, related };
}
