import type { VatBreakdown } from '../../../../entities/core/invoice';
import type { AccountingSettingsValues } from './accountingSettings';
import { convert, decimalIn, type ExchangeTerms } from '../currencies';

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
  /** The document's currency, accounting currency and rate when they differ: its lines are converted. */
  exchange: ExchangeTerms | null;
  /** The day the entry became final (YYYY-MM-DD): issue, or the recording of the payment. */
  validDate: string;
  lettering: Lettering | null;
}

/** What the books record: an issued invoice or credit note (sales journal), a payment received (bank journal). */
export type AccountingEvent =
  | (EventBase & {
      kind: 'invoice';
      vatBreakdown: Pick<VatBreakdown, 'rateBp' | 'taxableCents' | 'vatCents'>[];
      grandTotalCents: number;
    })
  | (EventBase & {
      kind: 'credit_note';
      vatBreakdown: Pick<VatBreakdown, 'rateBp' | 'taxableCents' | 'vatCents'>[];
      grandTotalCents: number;
      /** What its invoice had been settled by before (payments and credit notes; conversion: settlementInAccounting). */
      settledBeforeCents: number;
    })
  | (EventBase & {
      kind: 'payment';
      amountCents: number;
      reference: string | null;
      /** What its invoice had been settled by before (payments and credit notes; conversion: settlementInAccounting). */
      settledBeforeCents: number;
    });

/** 1234567 cents -> "12345,67"; the sign is never written (a side is a column). */
export function fecAmount(cents: number): string {
  const abs = Math.abs(cents);
  return `${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** An amount in a foreign currency (Montantdevise), in its units with at least two decimals: 500 JPY -> "500,00". */
export function fecForeignAmount(minor: number, currency: string): string {
  const [int, frac = ''] = decimalIn(Math.abs(minor), currency).split('.');
  return `${int},${frac.padEnd(2, '0')}`;
}

/**
 * The amounts of a document's entry in the accounting currency: the customer's total and each VAT converted at the
 * recorded rate (rounded each), and the revenue converted too, the last revenue line taking the rounding difference
 * so that the entry balances. A credit note's total is converted as a settlement of its invoice (`settledBeforeCents`
 * given: settlementInAccounting), so that its invoice's lettered lines sum to zero; its VAT is still its own
 * conversion, the revenue taking the difference.
 */
export function salesInAccounting(
  vatBreakdown: Pick<VatBreakdown, 'taxableCents' | 'vatCents'>[],
  grandTotalCents: number,
  exchange: ExchangeTerms | null,
  settledBeforeCents: number | null = null,
): { total: number; taxable: number[]; vat: number[] } {
  if (!exchange)
    return {
      total: grandTotalCents,
      taxable: vatBreakdown.map((b) => b.taxableCents),
      vat: vatBreakdown.map((b) => b.vatCents),
    };
  const c = (minor: number) => convert(minor, exchange.currency, exchange.accountingCurrency, exchange.exchangeRate);
  const total =
    settledBeforeCents === null
      ? c(grandTotalCents)
      : settlementInAccounting(grandTotalCents, settledBeforeCents, exchange);
  const vat = vatBreakdown.map((b) => c(b.vatCents));
  const taxable = vatBreakdown.map((b) => c(b.taxableCents));
  if (taxable.length) {
    const rest = total - vat.reduce((s, v) => s + v, 0) - taxable.slice(0, -1).reduce((s, v) => s + v, 0);
    taxable[taxable.length - 1] = rest;
  }
  return { total, taxable, vat };
}

/**
 * A settlement of an invoice (a payment, or a credit note's total) in the accounting currency, converted
 * cumulatively: what the invoice was settled by with it, converted, less what it was settled by before, converted
 * (payments and credit notes together, in the order they were recorded). The settlements of an invoice then add up
 * to its converted total, so a settled invoice's lettered lines sum to zero (the rate being the invoice's: no
 * exchange difference is booked).
 */
export function settlementInAccounting(
  amountCents: number,
  settledBeforeCents: number,
  exchange: ExchangeTerms | null,
) {
  if (!exchange) return amountCents;
  const c = (minor: number) => convert(minor, exchange.currency, exchange.accountingCurrency, exchange.exchangeRate);
  return c(settledBeforeCents + amountCents) - c(settledBeforeCents);
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
 * The customer's lines carry the lettering of their invoice once it is settled. A document in another currency than
 * the accounting one is booked in the accounting currency at its recorded rate (salesInAccounting,
 * settlementInAccounting), each line with its amount in the document's currency in Montantdevise and the code in Idevise.
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
  const foreign = event.exchange;
  /** `cents` in the accounting currency; `original` the same amount in the document's currency. */
  const line = (
    account: string,
    accountLabel: string,
    side: 'debit' | 'credit',
    cents: number,
    customer: boolean,
    original: number,
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
    Montantdevise: foreign ? fecForeignAmount(original, foreign.currency) : '',
    Idevise: foreign ? foreign.currency : '',
  });
  const lines: FecLine[] = [];
  if (event.kind === 'payment') {
    const amount = settlementInAccounting(event.amountCents, event.settledBeforeCents, event.exchange);
    lines.push(line(accounts.bankAccount, 'Banque', 'debit', amount, false, event.amountCents));
    lines.push(line(accounts.customersAccount, 'Clients', 'credit', amount, true, event.amountCents));
  } else {
    const [toCustomer, toRest] =
      event.kind === 'invoice' ? (['debit', 'credit'] as const) : (['credit', 'debit'] as const);
    const books = salesInAccounting(
      event.vatBreakdown,
      event.grandTotalCents,
      event.exchange,
      event.kind === 'credit_note' ? event.settledBeforeCents : null,
    );
    lines.push(line(accounts.customersAccount, 'Clients', toCustomer, books.total, true, event.grandTotalCents));
    event.vatBreakdown.forEach((b, i) =>
      lines.push(
        line(
          accounts.revenueAccount,
          `Ventes ${rateLabel(b.rateBp)}`,
          toRest,
          books.taxable[i]!,
          false,
          b.taxableCents,
        ),
      ),
    );
    event.vatBreakdown.forEach((b, i) =>
      lines.push(
        line(
          accounts.vatAccounts[String(b.rateBp)] ?? accounts.defaultVatAccount,
          `TVA collectée ${rateLabel(b.rateBp)}`,
          toRest,
          books.vat[i]!,
          false,
          b.vatCents,
        ),
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
