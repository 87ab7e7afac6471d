import type { InvoiceKind } from '../../../entities/core/invoice';
import type { Em } from '../../../lib/db';
import { conflict } from '../../../lib/errors';
import type { InvoiceSettingsValues } from './settings';
import { nextSequenceNo, numberIssued } from './store';

export interface AssignedNumber {
  /** Year of the counter (0 without yearly reset). */
  year: number;
  sequenceNo: number;
  number: string;
}

/** The counter a document issued on `issueDate` takes: the issue year's with yearly reset, else the one of every year (0). */
export const sequenceYear = (issueDate: string, settings: Pick<InvoiceSettingsValues, 'yearlyReset'>): number =>
  settings.yearlyReset ? Number(issueDate.slice(0, 4)) : 0;

/** The printed number: the kind's prefix ({YYYY} as the issue year) and the counter zero-padded to `digits`. */
export function formatNumber(
  kind: InvoiceKind,
  sequenceNo: number,
  issueDate: string,
  settings: Pick<InvoiceSettingsValues, 'invoicePrefix' | 'creditNotePrefix' | 'digits'>,
): string {
  const prefix = (kind === 'invoice' ? settings.invoicePrefix : settings.creditNotePrefix).replaceAll(
    '{YYYY}',
    issueDate.slice(0, 4),
  );
  return `${prefix}${String(sequenceNo).padStart(settings.digits, '0')}`;
}

/**
 * Takes the next number of the organisation's sequence for this kind of document. Must run inside the issuing
 * transaction: taking the counter locks its row until that transaction ends, so issuers of one organisation
 * and kind wait for each other, a rolled-back issue gives its number back (no gap), and numbers follow the
 * order of issue (chronological: the issue date is always the day of issue). The trigger on inv_invoices
 * refuses a number whose predecessor does not exist.
 */
export async function takeNumber(
  em: Em,
  tenantId: string,
  kind: InvoiceKind,
  issueDate: string,
  settings: InvoiceSettingsValues,
): Promise<AssignedNumber> {
  const year = sequenceYear(issueDate, settings);
  const sequenceNo = await nextSequenceNo(em, tenantId, kind, year);
  const number = formatNumber(kind, sequenceNo, issueDate, settings);
  // Settings changed back and forth (a prefix without {YYYY}, yearly reset toggled) could repeat a number.
  if (await numberIssued(em, number))
    throw conflict(
      'invoice_number_taken',
      `Number ${number} is already issued: change the numbering prefix in /api/invoices/settings`,
    );
  return { year, sequenceNo, number };
}
