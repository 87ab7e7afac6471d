import { computeInvoice, type LineInput, type VatBreakdown } from './amounts';
import { creditVat } from './creditVat';

const S = (unitPriceCents: number, vatRate = 20): LineInput => ({
  description: 'x',
  quantity: 1,
  unitPriceCents,
  vatRate,
  vatCategory: 'S',
});
const vatOfNote = (note: { vatBreakdown: VatBreakdown[] }) =>
  note.vatBreakdown.map((g) => [g.category, g.rateBp, g.taxableCents, g.vatCents]);

describe('the VAT of credit notes', () => {
  // Three lines of 0.83 at 20 %: taxable 2.49, VAT round(0.498) = 0.50; each line alone would have 0.17 of VAT.
  const invoice = computeInvoice([S(83), S(83), S(83)]);

  it('credits an invoice line by line to exactly its VAT, a cent moved where the rounding needs it', () => {
    expect(invoice.vatTotalCents).toBe(50);
    const first = creditVat(computeInvoice([S(83)]), invoice.vatBreakdown, []);
    expect(vatOfNote(first)).toEqual([['S', 2000, 83, 17]]);
    expect(first).toMatchObject({ vatTotalCents: 17, grandTotalCents: 100 });
    // round(1.66 × 20 %) = 0.33 credited in all: this note 0.16.
    const second = creditVat(computeInvoice([S(83)]), invoice.vatBreakdown, first.vatBreakdown);
    expect(second).toMatchObject({ vatTotalCents: 16, grandTotalCents: 99 });
    // The last one takes what is left of the invoice's VAT.
    const third = creditVat(computeInvoice([S(83)]), invoice.vatBreakdown, [
      ...first.vatBreakdown,
      ...second.vatBreakdown,
    ]);
    expect(third).toMatchObject({ vatTotalCents: 17, grandTotalCents: 100 });
    expect(first.grandTotalCents + second.grandTotalCents + third.grandTotalCents).toBe(invoice.grandTotalCents);
  });

  it('credits the whole invoice at once with its own VAT', () => {
    const all = creditVat(computeInvoice([S(83), S(83), S(83)]), invoice.vatBreakdown, []);
    expect(all).toMatchObject({ vatTotalCents: 50, grandTotalCents: invoice.grandTotalCents });
  });

  it('keeps each VAT breakdown apart', () => {
    const mixed = computeInvoice([S(1000), S(1000, 5.5)]);
    const note = creditVat(computeInvoice([S(1000, 5.5)]), mixed.vatBreakdown, []);
    expect(vatOfNote(note)).toEqual([['S', 550, 1000, 55]]);
  });

  it('refuses to credit more than the invoice in a breakdown, or a breakdown the invoice does not have (409)', () => {
    const everything = computeInvoice([S(83), S(83), S(83)]).vatBreakdown;
    expect(() => creditVat(computeInvoice([S(83)]), invoice.vatBreakdown, everything)).toThrow(
      expect.objectContaining({ status: 409, code: 'credit_exceeds_invoice' }),
    );
    expect(() => creditVat(computeInvoice([S(250)]), invoice.vatBreakdown, [])).toThrow(/S at 2000/);
    expect(() => creditVat(computeInvoice([S(100, 10)]), invoice.vatBreakdown, [])).toThrow(/S at 1000/);
  });
});
