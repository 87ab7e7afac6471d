import type { Invoice } from '../../../entities/core/invoice';
import { todayIn } from '../../../lib/calendar';
import { conflict } from '../../../lib/errors';

export const notDraft = (invoice: Invoice) =>
  conflict(
    'invoice_not_draft',
    `Invoice ${invoice.number} is issued: it can no longer be changed or deleted (issue a credit note to correct it)`,
  );
export const notIssued = () => conflict('invoice_not_issued', 'The invoice is a draft: issue it first');

/**
 * The time zone invoices are dated in. French issuers date in Europe/Paris; a business record with its own time
 * zone may replace this once organisations carry one for invoicing.
 */
export const INVOICE_TIME_ZONE = 'Europe/Paris';

/** Today's date (YYYY-MM-DD) where invoices are dated. */
export const invoiceToday = (now = new Date()): string => todayIn(INVOICE_TIME_ZONE, now);
