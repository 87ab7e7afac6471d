import type { VatBreakdown } from '../../../../entities/core/invoice';
import type { AccountingSettingsValues } from './accountingSettings';

/**
 * The FEC (Fichier des Écritures Comptables, article A47 A-1 of the Livre des procédures fiscales): its 18
 * columns in their order, one line per entry line, dates YYYYMMDD, amounts with a comma as decimal separator and no
 * thousands separator, every entry (EcritureNum) balanced, entries numbered from 1 without gaps in date order.
 * Pure: the rows come from the store (exportFec.ts), the text goes to the answer.
 */
export const FEC_COLUMNS = [
  'JournalCode',
  'JournalLib',
  'EcritureNum',
  'EcritureDate',
  'CompteNum',
  'CompteLib',
  'CompAuxNum',
  'CompAuxLib',
  'PieceRef',
  'PieceDate',
  'EcritureLib',
  'Debit',
  'Credit',
  'EcritureLet',
  'DateLet',
  'ValidDate',
  'Montantdevise',
  'Idevise',
] as const;
export type FecColumn = (typeof FEC_COLUMNS)[number];
export type FecLine = Record<FecColumn, string>;

export const fecSeparators = { tab: '\t', pipe: '|' } as const;
export type FecSeparator = keyof typeof fecSeparators;

/** The settlement of the invoice a line belongs to, when nothing is outstanding: its lettering. */
export interface Lettering {
  /** The invoice's number, letters and digits only (unique in the organisation). */
  code: string;
  /** The day of the last payment or credit note that settled it (YYYY-MM-DD). */
  date: string;
}

interface EventBase {
  id: string;
  /** YYYY-MM-DD. */
  date: string;
  customerId: string;
  customerName: string;
  /** The document's number (for a payment: its invoice's). */
  number: string;
  currency: string;
  /** The day the entry became final (YYYY-MM-DD): issue, or the recording of the payment. */
  validDate: string;
  lettering: Lettering | null;
}

/** What the books record: an issued invoice or credit note (sales journal), a payment received (bank journal). */
export type AccountingEvent =
  | (EventBase & {
      kind: 'invoice' | 'credit_note';
      vatBreakdown: Pick<VatBreakdown, 'rateBp' | 'taxableCents' | 'vatCents'>[];
      grandTotalCents: number;
    })
  | (EventBase & { kind: 'payment'; amountCents: number; reference: string | null });

/** 1234567 cents -> "12345,67"; the sign is never written (a side is a column). */
export function fecAmount(cents: number): string {
  const abs = Math.abs(cents);
  return `${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** 2026-03-05 -> 20260305. */
export const fecDate = (iso: string): string => iso.slice(0, 10).replaceAll('-', '');

/** A text cell: no separator, tab, pipe or line break inside (they would split the line), trimmed. */
export const fecText = (value: string): string => value.replace(/[\t|\r\n]+/g, ' ').trim();

/** The auxiliary account of a customer: C + the first 10 hexadecimal digits of its id, stable and unique enough. */
export const customerAuxAccount = (customerId: string): string =>
  `C${customerId.replaceAll('-', '').slice(0, 10).toUpperCase()}`;

/** An invoice number as a lettering code: its letters and digits (F-2026-00042 -> F202600042). */
export const letteringCode = (number: string): string => number.replace(/[^0-9A-Za-z]/g, '').toUpperCase();

const rateLabel = (rateBp: number) => `${(rateBp / 100).toLocaleString('fr-FR')} %`;

/**
 * The lines of one entry (all with EcritureNum `num`). An invoice: the customer's account debited with the grand
 * total, revenue credited per VAT rate with the taxable amount, VAT collected credited per rate; a credit note
 * the reverse; a payment: bank debited, customer credited. Zero lines are left out; an entry of zero has none.
 * The customer's lines carry the lettering of their invoice once it is settled.
 */
export function fecEntryLines(event: AccountingEvent, num: number, accounts: AccountingSettingsValues): FecLine[] {
  const sales = event.kind !== 'payment';
  const journal = sales ? accounts.salesJournalCode : accounts.bankJournalCode;
  const base = {
    JournalCode: journal,
    JournalLib: sales ? 'Journal des ventes' : 'Journal de banque',
    EcritureNum: String(num),
    EcritureDate: fecDate(event.date),
    PieceRef: fecText(event.number),
    PieceDate: fecDate(event.date),
    ValidDate: fecDate(event.validDate),
  };
  const label =
    event.kind === 'payment'
      ? `Règlement ${event.number} ${event.customerName}${event.reference ? ` ${event.reference}` : ''}`
      : `${event.kind === 'invoice' ? 'Facture' : 'Avoir'} ${event.number} ${event.customerName}`;
  const foreign = event.currency !== 'EUR';
  const line = (
    account: string,
    accountLabel: string,
    side: 'debit' | 'credit',
    cents: number,
    customer: boolean,
  ): FecLine => ({
    ...base,
    CompteNum: account,
    CompteLib: fecText(accountLabel),
    CompAuxNum: customer ? customerAuxAccount(event.customerId) : '',
    CompAuxLib: customer ? fecText(event.customerName) : '',
    EcritureLib: fecText(label).slice(0, 200),
    Debit: fecAmount(side === 'debit' ? cents : 0),
    Credit: fecAmount(side === 'credit' ? cents : 0),
    EcritureLet: customer && event.lettering ? event.lettering.code : '',
    DateLet: customer && event.lettering ? fecDate(event.lettering.date) : '',
    Montantdevise: foreign ? fecAmount(cents) : '',
    Idevise: foreign ? event.currency : '',
  });
  const lines: FecLine[] = [];
  if (event.kind === 'payment') {
    lines.push(line(accounts.bankAccount, 'Banque', 'debit', event.amountCents, false));
    lines.push(line(accounts.customersAccount, 'Clients', 'credit', event.amountCents, true));
  } else {
    const [toCustomer, toRest] =
      event.kind === 'invoice' ? (['debit', 'credit'] as const) : (['credit', 'debit'] as const);
    lines.push(line(accounts.customersAccount, 'Clients', toCustomer, event.grandTotalCents, true));
    for (const b of event.vatBreakdown)
      lines.push(line(accounts.revenueAccount, `Ventes ${rateLabel(b.rateBp)}`, toRest, b.taxableCents, false));
    for (const b of event.vatBreakdown)
      lines.push(
        line(
          accounts.vatAccounts[String(b.rateBp)] ?? accounts.defaultVatAccount,
          `TVA collectée ${rateLabel(b.rateBp)}`,
          toRest,
          b.vatCents,
          false,
        ),
      );
  }
  return lines.filter((l) => l.Debit !== '0,00' || l.Credit !== '0,00');
}

export const fecHeader = (separator: FecSeparator): string => `${FEC_COLUMNS.join(fecSeparators[separator])}\r\n`;

export const formatFecLine = (l: FecLine, separator: FecSeparator): string =>
  `${FEC_COLUMNS.map((c) => l[c]).join(fecSeparators[separator])}\r\n`;

/**
 * The FEC's text, header first, from events in date order: entries numbered 1, 2, ... as they are written (an
 * event without lines takes no number), so the numbering has no gap whatever was left out.
 */
export async function* fecFileChunks(
  events: AsyncIterable<AccountingEvent> | Iterable<AccountingEvent>,
  accounts: AccountingSettingsValues,
  separator: FecSeparator,
): AsyncGenerator<string> {
  yield fecHeader(separator);
  let num = 0;
  for await (const event of events) {
    const lines = fecEntryLines(event, num + 1, accounts);
    if (!lines.length) continue;
    num++;
    yield lines.map((l) => formatFecLine(l, separator)).join('');
  }
}

/** The fiscal year ending in `year` (it starts in month `startMonth`, 1 = January): first and last day. */
export function fiscalYear(year: number, startMonth: number): { from: string; to: string } {
  const pad = (n: number) => String(n).padStart(2, '0');
  if (startMonth === 1) return { from: `${year}-01-01`, to: `${year}-12-31` };
  const last = new Date(Date.UTC(year, startMonth - 1, 0)).getUTCDate();
  return { from: `${year - 1}-${pad(startMonth)}-01`, to: `${year}-${pad(startMonth - 1)}-${pad(last)}` };
}

/** SIRENFECYYYYMMDD.txt, the date being the fiscal year's closing day. */
export const fecFileName = (siren: string, closing: string): string => `${siren}FEC${fecDate(closing)}.txt`;
