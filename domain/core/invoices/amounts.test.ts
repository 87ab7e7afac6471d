import { computeInvoice, type LineInput } from './amounts';

/** Totals and rounding on a fixed table: every figure worked out by hand (EN 16931: VAT rounded per breakdown). */
const S = (quantity: number, unitPriceCents: number, vatRate: number, extra: Partial<LineInput> = {}): LineInput => ({
  description: 'x',
  quantity,
  unitPriceCents,
  vatRate,
  vatCategory: 'S',
  ...extra,
});

const cases: {
  name: string;
  lines: LineInput[];
  nets: number[];
  breakdown: [string, number, number, number][];
  totals: [number, number, number];
}[] = [
  {
    name: 'one line at 20 %',
    lines: [S(1, 10_000, 20)],
    nets: [10_000],
    breakdown: [['S', 2000, 10_000, 2_000]],
    totals: [10_000, 2_000, 12_000],
  },
  // 3 × 0.333 € = 0.999 € -> 1.00 €; VAT 0.20
  {
    name: 'quantity with 3 decimals rounds the line half up',
    lines: [S(1.5, 3333, 20), S(0.333, 300, 20)],
    nets: [5000, 100],
    breakdown: [['S', 2000, 5100, 1020]],
    totals: [5100, 1020, 6120],
  },
  // per line VAT would be 0.17 + 0.17 + 0.17 = 0.51; per breakdown: 2.49 × 20 % = 0.498 -> 0.50
  {
    name: 'VAT rounded once per breakdown, not per line',
    lines: [S(1, 83, 20), S(1, 83, 20), S(1, 83, 20)],
    nets: [83, 83, 83],
    breakdown: [['S', 2000, 249, 50]],
    totals: [249, 50, 299],
  },
  {
    name: 'several rates, sorted by rate',
    lines: [S(2, 1999, 5.5), S(1, 4550, 10), S(3, 1000, 20), S(1, 1234, 2.1)],
    nets: [3998, 4550, 3000, 1234],
    // 39.98 × 5.5 % = 2.1989 -> 2.20; 45.50 × 10 % = 4.55; 30.00 × 20 % = 6.00; 12.34 × 2.1 % = 0.25914 -> 0.26
    breakdown: [
      ['S', 2000, 3000, 600],
      ['S', 1000, 4550, 455],
      ['S', 550, 3998, 220],
      ['S', 210, 1234, 26],
    ],
    totals: [12_782, 1301, 14_083],
  },
  // 12.5 % of 2 × 19.99 = 39.98 -> 4.9975 -> 5.00; net 34.98; 10 % of 15.00 -> 1.50 flat
  {
    name: 'discounts by percentage and amount',
    lines: [S(2, 1999, 20, { discountPercent: 12.5 }), S(1, 1500, 20, { discountCents: 150 })],
    nets: [3498, 1350],
    breakdown: [['S', 2000, 4848, 970]],
    totals: [4848, 970, 5818],
  },
  {
    name: '100 % discount',
    lines: [S(1, 5000, 20, { discountPercent: 100 }), S(1, 5000, 20)],
    nets: [0, 5000],
    breakdown: [['S', 2000, 5000, 1000]],
    totals: [5000, 1000, 6000],
  },
  {
    name: 'zero rated, exempt and reverse charge beside standard',
    lines: [
      S(1, 1000, 20),
      { description: 'Export', quantity: 1, unitPriceCents: 2000, vatRate: 0, vatCategory: 'Z' },
      {
        description: 'Formation',
        quantity: 2.5,
        unitPriceCents: 4000,
        vatRate: 0,
        vatCategory: 'E',
        exemptionReason: 'Exonération art. 261-4-4° du CGI',
      },
      { description: 'Sous-traitance BTP', quantity: 1, unitPriceCents: 7000, vatRate: 0, vatCategory: 'AE' },
    ],
    nets: [1000, 2000, 10_000, 7000],
    breakdown: [
      ['S', 2000, 1000, 200],
      ['AE', 0, 7000, 0],
      ['E', 0, 10_000, 0],
      ['Z', 0, 2000, 0],
    ],
    totals: [20_000, 200, 20_200],
  },
  // 99 999.999 × 100 000 € = 9 999 999 900 €: exact (the product is computed as a BigInt)
  {
    name: 'large values stay exact',
    lines: [S(99_999.999, 10_000_000, 20)],
    nets: [999_999_990_000],
    breakdown: [['S', 2000, 999_999_990_000, 199_999_998_000]],
    totals: [999_999_990_000, 199_999_998_000, 1_199_999_988_000],
  },
];

describe('invoice amounts (EN 16931 rounding)', () => {
  it.each(cases)('$name', ({ lines, nets, breakdown, totals }) => {
    const c = computeInvoice(lines);
    expect(c.lines.map((l) => l.netCents)).toEqual(nets);
    expect(c.vatBreakdown.map((g) => [g.category, g.rateBp, g.taxableCents, g.vatCents])).toEqual(breakdown);
    expect([c.taxExclusiveCents, c.vatTotalCents, c.grandTotalCents]).toEqual(totals);
    expect(c.lineTotalCents).toBe(nets.reduce((a, b) => a + b, 0));
  });

  it('refuses a total above 10^13 cents', () => {
    expect(() => computeInvoice([S(999_999.999, 1_000_000_000, 20)])).toThrow(/too large/);
  });

  it('defaults the exemption reasons of AE, K and O and requires one for E', () => {
    const c = computeInvoice([{ description: 'x', quantity: 1, unitPriceCents: 100, vatRate: 0, vatCategory: 'K' }]);
    expect(c.vatBreakdown[0]).toMatchObject({ category: 'K', exemptionReasonCode: 'VATEX-EU-IC' });
    expect(() =>
      computeInvoice([{ description: 'x', quantity: 1, unitPriceCents: 100, vatRate: 0, vatCategory: 'E' }]),
    ).toThrow(expect.objectContaining({ errors: [expect.objectContaining({ field: 'lines[0].exemptionReason' })] }));
  });

  it.each([
    ['more than 3 decimals', S(1.0001, 100, 20), 'lines[0].quantity'],
    ['a positive rate outside S', { ...S(1, 100, 20), vatCategory: 'Z' as const }, 'lines[0].vatRate'],
    ['rate 0 in S', S(1, 100, 0), 'lines[0].vatRate'],
    ['an unknown rate', S(1, 100, 19.6), 'lines[0].vatRate'],
    ['a reason in S', S(1, 100, 20, { exemptionReason: 'no' }), 'lines[0].exemptionReason'],
    ['both discounts', S(1, 100, 20, { discountPercent: 1, discountCents: 1 }), 'lines[0].discountPercent'],
    ['a discount above the line', S(1, 100, 20, { discountCents: 101 }), 'lines[0].discountCents'],
  ])('refuses %s', (_, input, field) => {
    expect(() => computeInvoice([input])).toThrow(
      expect.objectContaining({ status: 400, errors: [expect.objectContaining({ field })] }),
    );
  });

  it('refuses category O beside another category, and two reasons in one category', () => {
    expect(() =>
      computeInvoice([
        S(1, 100, 20),
        { description: 'x', quantity: 1, unitPriceCents: 100, vatRate: 0, vatCategory: 'O' },
      ]),
    ).toThrow(expect.objectContaining({ errors: [expect.objectContaining({ field: 'lines' })] }));
    const e = (reason: string): LineInput => ({
      description: 'x',
      quantity: 1,
      unitPriceCents: 100,
      vatRate: 0,
      vatCategory: 'E',
      exemptionReason: reason,
    });
    expect(() => computeInvoice([e('a'), e('b')])).toThrow(
      expect.objectContaining({ errors: [expect.objectContaining({ field: 'lines[1].exemptionReason' })] }),
    );
  });
});
