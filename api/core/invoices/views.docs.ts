import { prose } from '../../http/docs';

/** The long OpenAPI texts of views.ts (prose: wrapped here, one line in the document). */

export const vatBreakdownVatCents = prose`
  round(taxable × rate), once per breakdown (BT-117); on a credit note adjusted by at most a cent so that the credit
  notes of an invoice add up to its VAT
`;

export const invoiceSummaryStatus = prose`
  draft; then issued, partially_paid, paid, partially_credited or credited, derived from payments and credit notes (a
  credit note stays issued)
`;

export const eInvoiceStatus = prose`
  not_submitted, or the lifecycle status: queued, submitted, rejected, delivered, received, approved, disputed, refused,
  paid, failed
`;
