import { conflict } from '../../../lib/errors';
import { vatOf, type Computed, type VatBreakdown } from './amounts';

const keyOf = (g: Pick<VatBreakdown, 'category' | 'rateBp'>) => `${g.category}:${g.rateBp}`;

/**
 * Sets the VAT of each breakdown of a credit note so that the credit notes of an invoice settle it exactly,
 * comparing per breakdown (category + rate), never on rounded grand totals:
 *   credited taxable = Σ earlier credit notes' taxable + this one's; above the invoice's: 409 credit_exceeds_invoice
 *   credited VAT     = round(credited taxable × rate), the rounding that gave the invoice its VAT
 *   this note's VAT  = credited VAT − Σ earlier notes' VAT, within [0, invoice's VAT − Σ earlier notes' VAT];
 *                      exactly the invoice's VAT − Σ earlier notes' VAT once the credited taxable reaches the
 *                      invoice's
 * So crediting an invoice line by line leaves nothing outstanding. A note's VAT then differs from
 * round(its taxable × rate) by at most one cent (more only after credit notes issued before this rule), which
 * EN 16931 accepts (BR-CO-17 tolerates less than one currency unit); its totals are recomputed from it
 * (BT-110 = Σ BT-117, BT-112 = BT-109 + BT-110).
 */
export function creditVat(note: Computed, invoiced: VatBreakdown[], creditedBefore: VatBreakdown[]): Computed {
  const before = new Map<string, { taxableCents: number; vatCents: number }>();
  for (const g of creditedBefore) {
    const sum = before.get(keyOf(g)) ?? { taxableCents: 0, vatCents: 0 };
    before.set(keyOf(g), { taxableCents: sum.taxableCents + g.taxableCents, vatCents: sum.vatCents + g.vatCents });
  }
  const exceeding: string[] = [];
  for (const g of note.vatBreakdown) {
    const invoice = invoiced.find((i) => keyOf(i) === keyOf(g));
    const earlier = before.get(keyOf(g)) ?? { taxableCents: 0, vatCents: 0 };
    const taxable = earlier.taxableCents + g.taxableCents;
    if (!invoice || taxable > invoice.taxableCents) {
      exceeding.push(keyOf(g));
      continue;
    }
    const remaining = Math.max(0, invoice.vatCents - earlier.vatCents);
    g.vatCents =
      taxable === invoice.taxableCents
        ? remaining
        : Math.min(remaining, Math.max(0, vatOf(taxable, g.rateBp) - earlier.vatCents));
  }
  if (exceeding.length)
    throw conflict(
      'credit_exceeds_invoice',
      `The credit notes would credit more than the invoice in VAT ${exceeding.map((k) => k.replace(':', ' at ')).join(', ')} (rate in basis points)`,
    );
  const vatTotalCents = note.vatBreakdown.reduce((sum, g) => sum + g.vatCents, 0);
  return { ...note, vatTotalCents, grandTotalCents: note.taxExclusiveCents + vatTotalCents };
}
