import { Invoice, InvoicePayment, type InvoiceKind, type InvoiceStatus } from '../../../entities/core/invoice';
import { lean, type Lean } from '../../../lib/lean';
import { toPage, type Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { invoiceToday } from './lookup';

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

/** A document shown among another's related documents. */
const relatedColumns = ['id', 'kind', 'number', 'issueDate', 'grandTotalCents'] as const;
export type RelatedDocument = Pick<Lean<Invoice>, (typeof relatedColumns)[number]>;

export interface InvoiceDetail {
  /** A lean row, or the entity a write use case just changed. */
  invoice: Lean<Invoice>;
  payments: Lean<InvoicePayment>[];
  /** Credit notes of an invoice; the credited invoice of a credit note. */
  related: RelatedDocument[];
}

const invoiceById = lean(Invoice, { where: 'id = $1' });
const relatedById = lean(Invoice, { columns: relatedColumns, where: 'id = $1' });
const paymentsOf = lean(InvoicePayment, { where: 'invoice_id = $1', orderBy: 'id asc' });
const creditNotesOf = lean(Invoice, { columns: relatedColumns, where: 'credited_invoice_id = $1', orderBy: 'id asc' });

export async function getInvoice(ctx: TenantContext, id: string): Promise<InvoiceDetail> {
  return detailOf(ctx, await invoiceById.byId('Invoice', ctx, id));
}

/** The document with its payments and related documents; also answers writes, after their transaction. */
export async function detailOf(ctx: TenantContext, invoice: Lean<Invoice>): Promise<InvoiceDetail> {
  if (invoice.kind === 'credit_note') return { invoice, payments: [], related: [await relatedById.byId('Invoice', ctx, invoice.creditedInvoiceId!)] };
  const [payments, related] = await Promise.all([paymentsOf.all(ctx, invoice.id), creditNotesOf.all(ctx, invoice.id)]);
  return { invoice, payments, related };
}
