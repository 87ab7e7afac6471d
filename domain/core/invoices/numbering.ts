import { Invoice, type InvoiceKind } from '../../../entities/core/invoice';
import { conflict } from '../../../lib/errors';
import type { Em } from '../../../lib/db';
import type { InvoiceSettingsValues } from './settings';

export interface AssignedNumber {
  /** Year of the counter (0 without yearly reset). */
  year: number;
  sequenceNo: number;
  number: string;
}

/**
 * Takes the next number of the organisation's sequence for this kind of document. Must run inside the issuing
 * transaction: the upsert locks the counter row until that transaction ends, so issuers of one organisation
 * and kind wait for each other, a rolled-back issue gives its number back (no gap), and numbers follow the
 * order of issue (chronological: the issue date is always the day of issue). The trigger on inv_invoices
 * refuses a number whose predecessor does not exist.
 */
export async function takeNumber(em: Em, tenantId: string, kind: InvoiceKind, issueDate: string, settings: InvoiceSettingsValues): Promise<AssignedNumber> {
  const issueYear = Number(issueDate.slice(0, 4));
  const year = settings.yearlyReset ? issueYear : 0;
  const [row] = await em.execute<{ last_no: number }[]>(
    `insert into inv_sequences (tenant_id, kind, year, last_no) values (?, ?, ?, 1)
     on conflict (tenant_id, kind, year) do update set last_no = inv_sequences.last_no + 1 returning last_no`,
    [tenantId, kind, year],
  );
  const sequenceNo = Number(row.last_no);
  const prefix = (kind === 'invoice' ? settings.invoicePrefix : settings.creditNotePrefix).replaceAll('{YYYY}', String(issueYear));
  const number = `${prefix}${String(sequenceNo).padStart(settings.digits, '0')}`;
  // Settings changed back and forth (a prefix without {YYYY}, yearly reset toggled) could repeat a number.
  if (await em.count(Invoice, { number })) throw conflict('invoice_number_taken', `Number ${number} is already issued: change the numbering prefix in /api/invoices/settings`);
  return { year, sequenceNo, number };
}
