import { badRequest, conflict } from '../../../lib/errors';

/**
 * Currencies of sales documents (ISO 4217). Pure: which codes exist, their minor units, amounts written in them,
 * the conversion to the accounting currency at a recorded rate and Stripe's amount rules.
 *
 * The codes are Node's ICU list (`Intl.supportedValuesOf('currency')`: ISO 4217's currencies, no metals or test
 * codes) and the ISO codes ICU leaves out (ISO_EXTRA_CODES: the funds such as CLF, and VED). The minor units are ISO 4217's: ICU answers CLDR's display digits, which differ from ISO for the
 * codes of ISO_MINOR_UNITS (CLDR prints no decimals for HUF, IDR, PKR ... which ISO gives 2, IQD 0 where ISO says 3),
 * so that table wins; every other code takes ICU's `maximumFractionDigits` (JPY 0, KWD/BHD/TND 3, CLF 4 ...).
 *
 * Amounts are integers of the currency's minor unit (the `...Cents` fields: cents of EUR, yen of JPY): every
 * rounding of amounts.ts (line net, VAT per breakdown) is to that unit.
 */

/** ISO 4217 minor units where ICU's CLDR digits differ (checked against ICU in currencies.test.ts). */
export const ISO_MINOR_UNITS: Readonly<Record<string, number>> = {
  AFN: 2,
  ALL: 2,
  COP: 2,
  HUF: 2,
  IDR: 2,
  IQD: 3,
  IRR: 2,
  KPW: 2,
  LAK: 2,
  LBP: 2,
  MGA: 2,
  MMK: 2,
  PKR: 2,
  SLL: 2,
  SOS: 2,
  SYP: 2,
  YER: 2,
};

/** EN 16931 amounts have at most 2 decimals (BR-DEC-*): documents are refused in currencies with more. */
export const MAX_DOCUMENT_DECIMALS = 2;

/** ISO 4217 codes ICU does not list: the fund codes (CLF, UYW ...) and VED. */
export const ISO_EXTRA_CODES = ['BOV', 'CHE', 'CHW', 'CLF', 'COU', 'MXV', 'USN', 'UYI', 'UYW', 'VED'] as const;

let known: Set<string> | null = null;
const codes = () => (known ??= new Set([...Intl.supportedValuesOf('currency'), ...ISO_EXTRA_CODES]));

/** An active ISO 4217 code, in capitals. */
export const isCurrency = (code: string): boolean => /^[A-Z]{3}$/.test(code) && codes().has(code);

/** The ISO 4217 minor units of a known code (2 for EUR, 0 for JPY, 3 for KWD). */
export function minorUnits(code: string): number {
  if (!isCurrency(code)) throw new Error(`unknown currency ${code}`);
  return (
    ISO_MINOR_UNITS[code] ??
    new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ??
    2
  );
}

/**
 * 400 unless `code` is a currency a sales document can be written in: a known ISO 4217 code with at most 2 minor
 * units (EN 16931 writes no more decimals). `field` names the request field.
 */
export function checkDocumentCurrency(code: string, field = 'currency'): string {
  if (!isCurrency(code))
    throw badRequest('unknown_currency', `${code} is not an ISO 4217 currency code`, [
      { field, message: 'must be an active ISO 4217 code in capitals, such as EUR, USD or JPY' },
    ]);
  if (minorUnits(code) > MAX_DOCUMENT_DECIMALS)
    throw badRequest(
      'currency_not_supported',
      `${code} has ${minorUnits(code)} decimals: EN 16931 e-invoices carry amounts with at most ${MAX_DOCUMENT_DECIMALS}`,
      [{ field, message: `must be a currency with at most ${MAX_DOCUMENT_DECIMALS} decimals` }],
    );
  return code;
}

/** Minor units as the decimal EN 16931 writes in that currency: 1234 USD -> "12.34", 1234 JPY -> "1234". */
export const decimalIn = (minor: number, code: string): string => {
  const decimals = minorUnits(code);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(decimals + 1, '0');
  return decimals ? `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : `${sign}${digits}`;
};

/** An amount as a French document prints it: "1 234,56 €", "1 234,56 USD", "12 346 JPY". */
export const formatMoney = (minor: number, code: string): string =>
  `${decimalIn(minor, code)
    .replace('.', ',')
    .replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} ${code === 'EUR' ? '€' : code}`;

// ---- exchange rates

/** Decimals a rate may have, and its largest integer part. */
export const RATE_DECIMALS = 10;
const RATE_PATTERN = /^(\d{1,12})(?:\.(\d{1,10}))?$/;

/**
 * A rate as given ("1.0845": units of the accounting currency for one unit of the document's currency) in its
 * canonical text (no trailing zeros), or a 400 naming `field` when it is not a positive decimal of at most 12
 * integer digits and 10 decimals.
 */
export function parseRate(text: string, field = 'exchangeRate'): string {
  const m = RATE_PATTERN.exec(text.trim());
  const scaled = m ? BigInt(m[1]! + (m[2] ?? '').padEnd(RATE_DECIMALS, '0')) : 0n;
  if (!m || scaled === 0n)
    throw badRequest('validation_failed', 'The exchange rate is invalid', [
      {
        field,
        message: `must be a positive decimal such as "1.0845" (at most 12 digits before the point and ${RATE_DECIMALS} after)`,
      },
    ]);
  return rateText(scaled);
}

/** A stored rate ("0.9215000000", numeric's text) in its canonical text ("0.9215"). */
export const canonicalRate = (rate: string): string => rateText(rateScaled(rate));

const rateScaled = (rate: string): bigint => {
  const [int, frac = ''] = rate.split('.');
  return BigInt(int! + frac.padEnd(RATE_DECIMALS, '0').slice(0, RATE_DECIMALS));
};
const rateText = (scaled: bigint): string => {
  const digits = scaled.toString().padStart(RATE_DECIMALS + 1, '0');
  const frac = digits.slice(-RATE_DECIMALS).replace(/0+$/, '');
  return `${digits.slice(0, -RATE_DECIMALS)}${frac ? `.${frac}` : ''}`;
};

/**
 * `minor` units of `from` in minor units of `to` at `rate` (units of `to` per unit of `from`), rounded half away
 * from zero to the minor unit of `to`: 10 000 USD cents at 0.9215 -> 9 215 EUR cents; 1 000 JPY at 0.0061 -> 610.
 */
export function convert(minor: number, from: string, to: string, rate: string): number {
  const shift = minorUnits(to) - minorUnits(from);
  let num = BigInt(Math.abs(minor)) * rateScaled(rate);
  let den = 10n ** BigInt(RATE_DECIMALS);
  if (shift > 0) num *= 10n ** BigInt(shift);
  else den *= 10n ** BigInt(-shift);
  const abs = Number((2n * num + den) / (2n * den));
  return minor < 0 ? -abs : abs;
}

/** What a document in a foreign currency records at issue, to convert its amounts for the books. */
export interface ExchangeTerms {
  currency: string;
  accountingCurrency: string;
  exchangeRate: string;
}

/** The exchange terms of a document, or null when it is in its accounting currency (or has no rate yet). */
export function exchangeOf(d: {
  currency: string;
  accountingCurrency?: string | null;
  exchangeRate?: string | null;
}): ExchangeTerms | null {
  if (!d.accountingCurrency || !d.exchangeRate || d.currency === d.accountingCurrency) return null;
  return {
    currency: d.currency,
    accountingCurrency: d.accountingCurrency,
    exchangeRate: canonicalRate(d.exchangeRate),
  };
}

/** An amount of a document in its accounting currency (converted at its rate; as it is without one). */
export function inAccountingCurrency(
  minor: number,
  d: { currency: string; accountingCurrency?: string | null; exchangeRate?: string | null },
): number {
  const terms = exchangeOf(d);
  return terms ? convert(minor, terms.currency, terms.accountingCurrency, terms.exchangeRate) : minor;
}

/**
 * The VAT of each breakdown in the accounting currency, and their sum (EN 16931 BT-111): each converted and rounded
 * on its own, so the books' VAT lines add up to the total the document states.
 */
export function vatInAccounting(vatCents: number[], terms: ExchangeTerms): { perBreakdown: number[]; total: number } {
  const perBreakdown = vatCents.map((v) => convert(v, terms.currency, terms.accountingCurrency, terms.exchangeRate));
  return { perBreakdown, total: perBreakdown.reduce((s, v) => s + v, 0) };
}

/**
 * The exchange rate a document records at issue: null in the accounting currency (a rate given then is refused),
 * else the one given at issue or on the draft; 400 `exchange_rate_required` without one.
 */
export function rateAtIssue(currency: string, accountingCurrency: string, given: string | null): string | null {
  if (currency === accountingCurrency) {
    if (given !== null)
      throw badRequest('exchange_rate_not_applicable', `The document is in ${currency}, the accounting currency`, [
        { field: 'exchangeRate', message: `must be absent for a document in ${accountingCurrency}` },
      ]);
    return null;
  }
  if (given === null)
    throw badRequest(
      'exchange_rate_required',
      `The document is in ${currency}: give the rate to ${accountingCurrency} (exchangeRate, units of ${accountingCurrency} for 1 ${currency})`,
      [{ field: 'exchangeRate', message: `is required for a document in ${currency}` }],
    );
  return given;
}

// ---- Stripe

/**
 * Stripe's zero-decimal currencies (amounts in whole units). Every other currency Stripe takes in two decimals,
 * ISK included (a two-decimal code at Stripe whose amounts must be whole krónur, so a multiple of 100), except the
 * three-decimal ones, which documents here never are.
 */
export const STRIPE_ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

/**
 * The amount Stripe charges for `minor` units of `code`: the same integer where Stripe's decimals are ISO's (EUR,
 * USD, JPY, HUF, TWD, UGX ...), ×100 for ISK (ISO 0, Stripe 2), and for MGA (ISO 2, Stripe 0) the whole ariary,
 * refused (409 `amount_not_payable_online`) when the amount has a fraction Stripe cannot charge.
 */
export function stripeAmount(minor: number, code: string): number {
  const iso = minorUnits(code);
  const stripe = STRIPE_ZERO_DECIMAL.has(code) ? 0 : 2;
  if (stripe >= iso) return minor * 10 ** (stripe - iso);
  const factor = 10 ** (iso - stripe);
  if (minor % factor !== 0)
    throw conflict(
      'amount_not_payable_online',
      `Stripe charges ${code} in whole units: ${decimalIn(minor, code)} ${code} cannot be paid online`,
    );
  return minor / factor;
}

/** Stripe's amount of `code` back in ISO minor units (the inverse of stripeAmount; a fraction Stripe has is dropped). */
export function fromStripeAmount(amount: number, code: string): number {
  const iso = minorUnits(code);
  const stripe = STRIPE_ZERO_DECIMAL.has(code) ? 0 : 2;
  return stripe >= iso ? Math.floor(amount / 10 ** (stripe - iso)) : amount * 10 ** (iso - stripe);
}
