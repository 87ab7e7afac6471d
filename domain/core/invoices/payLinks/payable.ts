import type { Invoice } from '../../../../entities/core/invoice';
import { conflict } from '../../../../lib/errors';
import { notIssued } from '../lookup';
import { outstandingOf } from '../settlement';

/** What Stripe Checkout's metadata says of a payment link: which kind of checkout it is (billing's have none). */
export const INVOICE_PAYMENT_PURPOSE = 'invoice_payment';

/**
 * What is left to pay on an invoice that can be paid online, or a 409: a credit note
 * (`credit_note_not_payable`), a draft (`invoice_not_issued`), paid (`invoice_paid`), credited (`invoice_credited`).
 */
export function payableAmount(invoice: Invoice): number {
  if (invoice.kind !== 'invoice')
    throw conflict('credit_note_not_payable', 'A credit note is not paid: record the payments on invoices');
  if (invoice.status === 'draft') throw notIssued();
  const outstanding = outstandingOf(invoice);
  if (outstanding > 0) return outstanding;
  if (invoice.status === 'credited')
    throw conflict('invoice_credited', `Invoice ${invoice.number} is cancelled by credit notes: nothing to pay`);
  throw conflict('invoice_paid', `Invoice ${invoice.number} is paid: nothing is outstanding`);
}
