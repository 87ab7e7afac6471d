/**
 * A received invoice as read from its XML, whatever its syntax (CII or UBL): the EN 16931 semantic model, the
 * parts the suite keeps and checks. Amounts are integers in cents (null when the document leaves them out, so a
 * missing mandatory total is told from a zero one); dates YYYY-MM-DD; a rate is a percentage as written (null
 * when absent, as category O has none).
 */
export type ReceivedSyntax = 'cii' | 'ubl';

export interface ReceivedAddress {
  line1: string | null;
  line2: string | null;
  postalCode: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2 as written (BT-40 / BT-55). */
  country: string | null;
}

export interface ReceivedParty {
  name: string | null;
  /** Legal registration identifier (BT-30 / BT-47) and its scheme (0002: SIREN). */
  legalId: string | null;
  legalIdScheme: string | null;
  /** VAT identifier (BT-31 / BT-48). */
  vatNumber: string | null;
  /** Another tax registration (BT-32), a seller identifier (BT-29 / BT-46). */
  taxId: string | null;
  id: string | null;
  /** Electronic address (BT-34 / BT-49) and its scheme (EAS code). */
  endpoint: string | null;
  endpointScheme: string | null;
  address: ReceivedAddress | null;
}

export interface ReceivedLine {
  id: string | null;
  name: string | null;
  /** Quantity as written (BT-129) and its unit (BT-130). */
  quantity: string | null;
  unitCode: string | null;
  /** Net price (BT-146) in cents, rounded to the cent; line allowances (BT-136) summed. */
  netPriceCents: number | null;
  allowanceCents: number;
  chargeCents: number;
  netCents: number | null;
  /** Decimals of the line net as written (BR-DEC-23). */
  netDecimals: number;
  vatCategory: string | null;
  vatRate: string | null;
}

export interface ReceivedVatBreakdown {
  category: string | null;
  rate: string | null;
  basisCents: number | null;
  vatCents: number | null;
  exemptionReason: string | null;
  exemptionReasonCode: string | null;
}

export interface ReceivedTotals {
  lineTotalCents: number | null;
  allowanceTotalCents: number | null;
  chargeTotalCents: number | null;
  taxBasisTotalCents: number | null;
  taxTotalCents: number | null;
  grandTotalCents: number | null;
  prepaidCents: number | null;
  roundingCents: number | null;
  duePayableCents: number | null;
}

export interface ReceivedPaymentMeans {
  /** UNTDID 4461 (30 / 58 credit transfer, 48 card, 49 / 59 direct debit ...). */
  typeCode: string | null;
  iban: string | null;
  bic: string | null;
}

export interface ReceivedNote {
  /** UNTDID 4451 subject code (BT-21): PMT, PMD, AAB ... */
  subject: string | null;
  text: string;
}

export interface ReceivedDocument {
  syntax: ReceivedSyntax;
  /** BT-24 and the business process (BT-23). */
  specification: string | null;
  businessProcess: string | null;
  number: string | null;
  typeCode: string | null;
  /** As written; issueDate is YYYY-MM-DD only when it reads as a date. */
  issueDateText: string | null;
  issueDate: string | null;
  dueDate: string | null;
  currency: string | null;
  buyerReference: string | null;
  orderReference: string | null;
  paymentTerms: string | null;
  notes: ReceivedNote[];
  precedingInvoice: string | null;
  deliveryDate: string | null;
  shipToCountry: string | null;
  seller: ReceivedParty;
  buyer: ReceivedParty;
  lines: ReceivedLine[];
  vatBreakdown: ReceivedVatBreakdown[];
  totals: ReceivedTotals;
  paymentMeans: ReceivedPaymentMeans[];
}

/** A decimal amount as written ("1234.5", "-3") in cents, half away from zero; null when absent or not a number. */
export function centsOf(value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const v = value.trim();
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(v)) return null;
  const negative = v.startsWith('-');
  const [whole, fraction = ''] = v.replace(/^[+-]/, '').split('.');
  const digits = BigInt((whole || '0') + (fraction + '000').slice(0, 3));
  const cents = (digits + 5n) / 10n;
  const n = Number(cents);
  return negative && n !== 0 ? -n : n;
}

/** Digits after the decimal point of a decimal as written. */
export const decimalsOf = (value: string | null): number => (value?.trim().split('.')[1] ?? '').length;

/** "20260315" (format 102) or "2026-03-15" as YYYY-MM-DD when it is a real date, else null. */
export function isoDateOf(value: string | null | undefined): string | null {
  const v = value?.trim() ?? '';
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(v);
  if (!m) return null;
  const [, y, mo, d] = m;
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(mo) - 1 && date.getUTCDate() === Number(d)
    ? `${y}-${mo}-${d}`
    : null;
}
