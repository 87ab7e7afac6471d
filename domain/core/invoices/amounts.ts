import { badRequest, type FieldError } from '../../../lib/errors';
import type { InvoiceLine, VatBreakdown, VatCategory } from '../../../entities/core/invoice';

export { vatCategories, type InvoiceLine, type VatBreakdown, type VatCategory } from '../../../entities/core/invoice';

/**
 * Invoice arithmetic, in integers only: amounts in cents, quantities in thousandths, VAT rates and discount
 * percentages in basis points (1/100 of a percent). The rounding rule is EN 16931's:
 *
 *   line gross     = round(quantity × unit price)                     (BT-129 × BT-146)
 *   line discount  = the amount given, or round(gross × percent)      (BT-136, BT-138)
 *   line net       = gross − discount                                 (BT-131)
 *   per VAT breakdown (category + rate, BG-23):
 *     taxable      = Σ line nets of that breakdown                    (BT-116, BR-S-08 ...)
 *     VAT          = round(taxable × rate)                            (BT-117, BR-CO-17: rounded once per breakdown,
 *                                                                      never per line)
 *   sum of lines   = Σ line nets                                      (BT-106, BR-CO-10)
 *   total excl.    = sum of lines (no document-level allowances)      (BT-109, BR-CO-13)
 *   VAT total      = Σ breakdown VAT                                  (BT-110, BR-CO-14)
 *   grand total    = total excl. + VAT total                          (BT-112, BR-CO-15)
 *
 * round() is half away from zero (all values here are positive: half up), to the cent.
 *
 * A credit note's VAT per breakdown is the exception: creditVat.ts adjusts it by at most a cent so that
 * the credit notes of an invoice add up to the invoice's VAT exactly.
 */

/** French VAT rates in percent; S takes a positive one, every other category 0. */
export const vatRates = [20, 10, 5.5, 2.1, 0] as const;

/** Reason codes (VATEX) and texts of the categories that carry an exemption reason (BR-E-10, BR-AE-10, BR-IC-10, BR-O-10). */
export const defaultExemptions: Partial<Record<VatCategory, { code: string; text: string }>> = {
  AE: { code: 'VATEX-EU-AE', text: 'Autoliquidation' },
  K: { code: 'VATEX-EU-IC', text: 'Exonération de TVA, article 262 ter I du CGI' },
  O: { code: 'VATEX-EU-O', text: 'Non soumis à la TVA' },
};

export const MAX_QUANTITY = 1_000_000;
export const MAX_UNIT_PRICE_CENTS = 1_000_000_000;
/** Largest total an invoice may reach (10^13 cents = 100 billion euros): sums stay exact as JavaScript numbers. */
export const MAX_TOTAL_CENTS = 10_000_000_000_000;

export interface LineInput {
  description: string;
  /** Positive, at most 3 decimals. */
  quantity: number;
  /** UN/ECE recommendation 20 unit code (C62 "one" by default, HUR hour, DAY, KGM ...). */
  unitCode?: string;
  /** Net unit price excluding VAT, in cents. */
  unitPriceCents: number;
  /** Percent: 20, 10, 5.5, 2.1 or 0. */
  vatRate: number;
  vatCategory: VatCategory;
  /** Required for E; defaults for AE, K and O; refused for S and Z. */
  exemptionReason?: string;
  /** Line discount as a percentage (up to 2 decimals) ... */
  discountPercent?: number;
  /** ... or as an amount in cents (not both). */
  discountCents?: number;
}

export interface Totals {
  lineTotalCents: number;
  taxExclusiveCents: number;
  vatTotalCents: number;
  grandTotalCents: number;
}

export interface Computed extends Totals {
  lines: InvoiceLine[];
  vatBreakdown: VatBreakdown[];
}

/** a / b rounded half up, for a >= 0, b > 0. */
const roundDiv = (a: bigint, b: bigint): bigint => (2n * a + b) / (2n * b);

/** round(taxable × rate): the VAT of a breakdown (BT-117, BR-CO-17), rate in basis points. */
export const vatOf = (taxableCents: number, rateBp: number): number =>
  Number(roundDiv(BigInt(taxableCents) * BigInt(rateBp), 10_000n));

/** A decimal with at most `decimals` decimals as an integer of 10^-decimals units, or null when it has more. */
export function scaled(value: number, decimals: number): number | null {
  const factor = 10 ** decimals;
  const n = Math.round(value * factor);
  return Math.abs(value * factor - n) < 1e-6 * Math.max(1, Math.abs(n)) ? n : null;
}

/** Computes lines, VAT breakdowns and totals; every problem of the input is a field error of `lines[i].field`. */
export function computeInvoice(inputs: LineInput[]): Computed {
  const errors: FieldError[] = [];
  const lines: InvoiceLine[] = [];
  inputs.forEach((input, i) => {
    const line = computeLine(input, i, errors);
    if (line) lines.push(line);
  });
  if (!errors.length) checkBreakdownRules(lines, errors);
  if (errors.length) throw badRequest('validation_failed', 'The invoice lines are invalid', errors);

  const groups = new Map<string, VatBreakdown>();
  for (const line of lines) {
    const key = `${line.vatCategory}:${line.vatRateBp}`;
    const group = groups.get(key) ?? {
      category: line.vatCategory,
      rateBp: line.vatRateBp,
      taxableCents: 0,
      vatCents: 0,
      exemptionReason: line.exemptionReason,
      exemptionReasonCode: line.exemptionReasonCode,
    };
    group.taxableCents += line.netCents;
    groups.set(key, group);
  }
  const vatBreakdown = [...groups.values()].sort((a, b) => b.rateBp - a.rateBp || a.category.localeCompare(b.category));
  for (const group of vatBreakdown) group.vatCents = vatOf(group.taxableCents, group.rateBp);
  const lineTotalCents = lines.reduce((sum, l) => sum + l.netCents, 0);
  const vatTotalCents = vatBreakdown.reduce((sum, g) => sum + g.vatCents, 0);
  const grandTotalCents = lineTotalCents + vatTotalCents;
  if (grandTotalCents > MAX_TOTAL_CENTS)
    throw badRequest('validation_failed', 'The invoice total is too large', [
      { field: 'lines', message: `the total may not exceed ${MAX_TOTAL_CENTS} cents` },
    ]);
  return { lines, vatBreakdown, lineTotalCents, taxExclusiveCents: lineTotalCents, vatTotalCents, grandTotalCents };
}

function computeLine(input: LineInput, i: number, errors: FieldError[]): InvoiceLine | null {
  const at = (field: string, message: string) => errors.push({ field: `lines[${i}].${field}`, message });
  const before = errors.length;
  const quantityMilli = scaled(input.quantity, 3);
  if (quantityMilli === null) at('quantity', 'may have at most 3 decimals');
  else if (quantityMilli <= 0 || input.quantity > MAX_QUANTITY)
    at('quantity', `must be above 0 and at most ${MAX_QUANTITY}`);
  const rateBp = scaled(input.vatRate, 2);
  const { vatCategory: category } = input;
  if (rateBp === null || !vatRates.includes(input.vatRate as (typeof vatRates)[number]))
    at('vatRate', `must be one of ${vatRates.join(', ')}`);
  else if (category === 'S' ? rateBp === 0 : rateBp !== 0)
    at('vatRate', category === 'S' ? 'must be above 0 in category S' : `must be 0 in category ${category}`);
  const reason = input.exemptionReason?.trim() || null;
  if ((category === 'S' || category === 'Z') && reason) at('exemptionReason', `is not allowed in category ${category}`);
  if (category === 'E' && !reason)
    at('exemptionReason', 'is required in category E (e.g. "TVA non applicable, art. 293 B du CGI")');
  if (input.discountPercent !== undefined && input.discountCents !== undefined)
    at('discountPercent', 'give discountPercent or discountCents, not both');
  const discountPercentBp = input.discountPercent === undefined ? null : scaled(input.discountPercent, 2);
  if (
    input.discountPercent !== undefined &&
    (discountPercentBp === null || discountPercentBp < 0 || discountPercentBp > 10_000)
  )
    at('discountPercent', 'must be between 0 and 100 with at most 2 decimals');
  if (errors.length > before) return null;

  const grossCents = Number(roundDiv(BigInt(quantityMilli!) * BigInt(input.unitPriceCents), 1000n));
  const discountCents =
    discountPercentBp !== null
      ? Number(roundDiv(BigInt(grossCents) * BigInt(discountPercentBp), 10_000n))
      : (input.discountCents ?? 0);
  if (discountCents > grossCents) {
    at('discountCents', 'may not exceed the line amount (quantity × unit price)');
    return null;
  }
  const exemption = defaultExemptions[category];
  return {
    position: i + 1,
    description: input.description.trim(),
    quantityMilli: quantityMilli!,
    unitCode: input.unitCode ?? 'C62',
    unitPriceCents: input.unitPriceCents,
    vatCategory: category,
    vatRateBp: rateBp!,
    exemptionReason: category === 'S' || category === 'Z' ? null : (reason ?? exemption?.text ?? null),
    exemptionReasonCode: reason ? null : (exemption?.code ?? null),
    discountPercentBp,
    discountCents,
    grossCents,
    netCents: grossCents - discountCents,
  };
}

/**
 * One VAT breakdown per category and rate carries one exemption reason, so the lines of a category agree on
 * it; an invoice with category O (not subject to VAT) has no other category (BR-O-11 .. BR-O-14).
 */
function checkBreakdownRules(lines: InvoiceLine[], errors: FieldError[]): void {
  const reasons = new Map<VatCategory, string | null>();
  lines.forEach((line, i) => {
    const first = reasons.get(line.vatCategory);
    if (first === undefined) reasons.set(line.vatCategory, line.exemptionReason);
    else if (first !== line.exemptionReason)
      errors.push({
        field: `lines[${i}].exemptionReason`,
        message: `differs from the other ${line.vatCategory} lines' (one reason per VAT category)`,
      });
  });
  if (reasons.has('O') && reasons.size > 1)
    errors.push({
      field: 'lines',
      message: 'an invoice with category O lines (not subject to VAT) may not have lines of another category',
    });
}

/** Cents as the decimal EN 16931 writes: 1234 -> "12.34". */
export const decimal = (cents: number, decimals = 2): string => {
  const sign = cents < 0 ? '-' : '';
  const digits = String(Math.abs(cents)).padStart(decimals + 1, '0');
  return decimals ? `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : `${sign}${digits}`;
};
