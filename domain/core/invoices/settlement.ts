import type { Invoice, InvoiceStatus } from '../../../entities/core/invoice';
import { invoiceToday } from './lookup';

/**
 * The status of an issued invoice, derived from its grand total, the payments recorded and the credit notes
 * issued against it (outstanding = grand total − paid − credited):
 *   credited            credit notes cover the whole grand total
 *   paid                something was paid and nothing is outstanding
 *   partially_paid      something was paid and something is outstanding
 *   partially_credited  nothing paid, credit notes cover part of it
 *   issued              nothing paid or credited
 * A credit note is `issued` (it settles the invoice it corrects).
 */
export function settlementStatus(
  invoice: Pick<Invoice, 'kind' | 'grandTotalCents' | 'paidCents' | 'creditedCents'>,
): InvoiceStatus {
  if (invoice.kind === 'credit_note') return 'issued';
  const { grandTotalCents: total, paidCents: paid, creditedCents: credited } = invoice;
  if (credited > 0 && credited >= total) return 'credited';
  if (paid > 0) return paid + credited >= total ? 'paid' : 'partially_paid';
  return credited > 0 ? 'partially_credited' : 'issued';
}

export const outstandingOf = (
  invoice: Pick<Invoice, 'kind' | 'status' | 'grandTotalCents' | 'paidCents' | 'creditedCents'>,
): number =>
  invoice.kind === 'credit_note' || invoice.status === 'draft'
    ? 0
    : Math.max(0, invoice.grandTotalCents - invoice.paidCents - invoice.creditedCents);

/** Something is still due after the due date. */
export const isOverdue = (
  invoice: Pick<Invoice, 'kind' | 'status' | 'grandTotalCents' | 'paidCents' | 'creditedCents' | 'dueDate'>,
  today = invoiceToday(),
): boolean => outstandingOf(invoice) > 0 && !!invoice.dueDate && invoice.dueDate < today;
