import type { Invoice, InvoiceKind, InvoiceStatus } from '../../../../entities/core/invoice';
import { AppError } from '../../../../lib/errors';
import { payableAmount } from './payable';

const invoice = (status: InvoiceStatus, paidCents: number, creditedCents: number, kind: InvoiceKind = 'invoice') =>
  ({ kind, status, number: 'F-2026-00001', grandTotalCents: 12_000, paidCents, creditedCents }) as Invoice;

const refusal = (i: Invoice) => {
  try {
    payableAmount(i);
  } catch (err) {
    return err instanceof AppError ? `${err.status} ${err.code}` : String(err);
  }
  return 'payable';
};

describe('what an invoice can be paid online', () => {
  it('is what is outstanding on an open invoice', () => {
    expect(payableAmount(invoice('issued', 0, 0))).toBe(12_000);
    expect(payableAmount(invoice('partially_paid', 5_000, 0))).toBe(7_000);
    expect(payableAmount(invoice('partially_credited', 0, 2_000))).toBe(10_000);
  });

  it('refuses drafts, credit notes, paid and credited invoices with 409s', () => {
    expect(refusal(invoice('draft', 0, 0))).toBe('409 invoice_not_issued');
    expect(refusal(invoice('issued', 0, 0, 'credit_note'))).toBe('409 credit_note_not_payable');
    expect(refusal(invoice('paid', 12_000, 0))).toBe('409 invoice_paid');
    expect(refusal(invoice('paid', 10_000, 2_000))).toBe('409 invoice_paid');
    expect(refusal(invoice('credited', 0, 12_000))).toBe('409 invoice_credited');
  });
});
