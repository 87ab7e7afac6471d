import type { TenantContext } from '../../../context';
import { invoicesCsvBatch, paymentsCsvBatch } from './store';

const BATCH = 1000;
const NIL = '00000000-0000-0000-0000-000000000000';

/** Columns of the two CSV exports (header order). Amounts are integers in minor units (cents). */
export const ledgerCsvColumns = {
  invoices: [
    'id',
    'number',
    'kind',
    'status',
    'issueDate',
    'dueDate',
    'customerId',
    'customerName',
    'currency',
    'taxExclusiveCents',
    'vatTotalCents',
    'grandTotalCents',
    'paidCents',
    'creditedCents',
    'creditedInvoiceNumber',
    'accountingCurrency',
    'exchangeRate',
  ],
  payments: [
    'id',
    'paidOn',
    'amountCents',
    'method',
    'reference',
    'invoiceId',
    'invoiceNumber',
    'customerId',
    'customerName',
    'currency',
  ],
} as const;
export type LedgerCsvResource = keyof typeof ledgerCsvColumns;

/**
 * The issued documents (issue day) or payments (payment day) of a period, in id order, as rows of cells, read in
 * keyset batches. Amounts come back as numbers, so the CSV writer never prefixes them as formulas.
 */
export async function* exportLedgerCsv(
  ctx: TenantContext,
  resource: LedgerCsvResource,
  period: { from: string; to: string },
): AsyncGenerator<unknown[]> {
  const batch = resource === 'invoices' ? invoicesCsvBatch : paymentsCsvBatch;
  const columns = ledgerCsvColumns[resource];
  let after = NIL;
  for (;;) {
    const rows = await batch(ctx.em, ctx.tenantId, period, after, BATCH);
    for (const row of rows)
      yield columns.map((c) => {
        const v = row[c];
        return c.endsWith('Cents') ? Number(v) : (v ?? '');
      });
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1].id as string;
  }
}
