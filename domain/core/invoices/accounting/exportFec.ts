import { conflict } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { getBusiness } from '../../org/getBusiness';
import { exchangeOf } from '../currencies';
import { readAccountingSettings } from './accountingSettings';
import { fecFileChunks, fecFileName, fiscalYear, letteringCode, type AccountingEvent, type FecSeparator } from './fec';
import { encodeFec, fecContentType, type FecEncoding } from './fecEncoding';
import { journalBatch, type JournalCursor, type JournalRow } from './store';

const BATCH = 1000;

/** The journal rows of a period in date order, read in keyset batches (memory stays flat however large the year). */
async function* journalEvents(
  ctx: TenantContext,
  period: { from: string; to: string },
): AsyncGenerator<AccountingEvent> {
  let cursor: JournalCursor = {
    d: '0001-01-01',
    ord: -1,
    at: '0001-01-01T00:00:00Z',
    id: '00000000-0000-0000-0000-000000000000',
  };
  for (;;) {
    const rows = await journalBatch(ctx.em, ctx.tenantId, period, cursor, BATCH);
    for (const row of rows) yield eventOf(row, period.to);
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1];
    cursor = { d: last.d, ord: last.ord, at: last.at, id: last.id };
  }
}

/** A row as the pure builder takes it; lettered when its invoice was settled by the end of the period. */
function eventOf(row: JournalRow, periodEnd: string): AccountingEvent {
  const lettered = row.settled && row.settled_on !== null && row.settled_on <= periodEnd;
  const base = {
    id: row.id,
    date: row.d,
    customerId: row.customer_id,
    customerName: row.customer_name,
    number: row.number,
    currency: row.currency,
    exchange: exchangeOf({
      currency: row.currency,
      accountingCurrency: row.accounting_currency,
      exchangeRate: row.exchange_rate,
    }),
    validDate: row.valid_date,
    lettering: lettered ? { code: letteringCode(row.letter_number), date: row.settled_on! } : null,
  };
  const settledBeforeCents = Number(row.settled_before ?? 0);
  if (row.kind === 'payment')
    return {
      ...base,
      kind: 'payment',
      amountCents: Number(row.amount_cents),
      reference: row.reference,
      settledBeforeCents,
    };
  const sale = { ...base, vatBreakdown: row.vat_breakdown ?? [], grandTotalCents: Number(row.amount_cents) };
  return row.kind === 'credit_note'
    ? { ...sale, kind: 'credit_note', settledBeforeCents }
    : { ...sale, kind: 'invoice' };
}

/** The text chunks as bytes of the encoding. */
async function* encoded(chunks: AsyncGenerator<string>, encoding: FecEncoding): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) yield encodeFec(chunk, encoding);
}

/**
 * The FEC of the fiscal year ending in `year`: its file name, Content-Type (with the encoding's charset) and its
 * bytes as chunks (header, then one entry a chunk), in UTF-8 or ISO-8859-15 (fecEncoding.ts: what Latin-9 lacks
 * is transliterated or written `?`). 409 business_siren_missing when the business record has no SIREN (the file is
 * named after it). Checked before the first chunk, so a refusal is still a problem answer.
 */
export async function exportFec(
  ctx: TenantContext,
  props: { year: number; separator: FecSeparator; encoding: FecEncoding },
): Promise<{
  fileName: string;
  contentType: string;
  period: { from: string; to: string };
  chunks: AsyncGenerator<Buffer>;
}> {
  const business = await getBusiness(ctx);
  if (!business.siren)
    throw conflict('business_siren_missing', 'The FEC is named after the SIREN: set it on the business record first');
  const settings = await readAccountingSettings(ctx.em, ctx.tenantId);
  const period = fiscalYear(props.year, settings.fiscalYearStartMonth);
  return {
    fileName: fecFileName(business.siren, period.to),
    contentType: fecContentType(props.encoding),
    period,
    chunks: encoded(fecFileChunks(journalEvents(ctx, period), settings, props.separator), props.encoding),
  };
}
