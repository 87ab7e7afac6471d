import type { Invoice, InvoicePayment } from '../../../entities/core/invoice';
import type { Lean } from '../../../lib/lean';
import type { TenantContext } from '../../context';
import { creditNotesOf, invoiceById, paymentsOf, relatedById, type RelatedDocument } from './store';

export interface InvoiceDetail {
  /** A lean row, or the entity a write use case just changed. */
  invoice: Lean<Invoice>;
  payments: Lean<InvoicePayment>[];
  /** Credit notes of an invoice; the credited invoice of a credit note. */
  related: RelatedDocument[];
}

export async function getInvoice(ctx: TenantContext, id: string): Promise<InvoiceDetail> {
  return detailOf(ctx, await invoiceById.byId('Invoice', ctx, id));
}

/** The document with its payments and related documents; also answers writes, after their transaction. */
export async function detailOf(ctx: TenantContext, invoice: Lean<Invoice>): Promise<InvoiceDetail> {
  if (invoice.kind === 'credit_note')
    return { invoice, payments: [], related: [await relatedById.byId('Invoice', ctx, invoice.creditedInvoiceId!)] };
  const [payments, related] = await Promise.all([paymentsOf.all(ctx, invoice.id), creditNotesOf.all(ctx, invoice.id)]);
  return { invoice, payments, related };
}
