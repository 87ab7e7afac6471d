import type { FilterQuery } from '@mikro-orm/core';
import { Invoice, InvoicePayment, type InvoiceKind, type InvoiceStatus } from '../../../entities/core/invoice';
import { cursorWhere, toPage, type Page } from '../../../lib/pagination';
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

/** The organisation's invoices and credit notes, newest first. */
export async function listInvoices(ctx: TenantContext, props: ListInvoicesProps): Promise<Page<Invoice>> {
  const where: FilterQuery<Invoice> = { ...cursorWhere(props.cursor, 'desc') };
  if (props.kind) where.kind = props.kind;
  if (props.status) where.status = props.status;
  if (props.customerId) where.customerId = props.customerId;
  if (props.overdue) Object.assign(where, { kind: 'invoice', status: { $in: ['issued', 'partially_paid', 'partially_credited'] }, dueDate: { $lt: invoiceToday() } });
  return toPage(await ctx.em.find(Invoice, where, { orderBy: { id: 'desc' }, limit: props.limit + 1 }), props.limit);
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
