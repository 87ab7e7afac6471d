import {
  checkDocumentCurrency,
  convert,
  decimalIn,
  formatMoney,
  fromStripeAmount,
  ISO_MINOR_UNITS,
  isCurrency,
  minorUnits,
  parseRate,
  rateAtIssue,
  stripeAmount,
  vatInAccounting,
} from './currencies';
import { computeInvoice } from './amounts';

const problem = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as { code: string }).code;
  }
  return null;
};

describe('currencies (ISO 4217)', () => {
  it.each([
    ['EUR', 2],
    ['USD', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['ISK', 0],
    ['UGX', 0],
    ['XOF', 0],
    ['HUF', 2],
    ['TWD', 2],
    ['IDR', 2],
    ['MGA', 2],
    ['KWD', 3],
    ['BHD', 3],
    ['TND', 3],
    ['IQD', 3],
    ['CLF', 4],
  ])('%s has %i minor units', (code, units) => {
    expect(isCurrency(code)).toBe(true);
    expect(minorUnits(code)).toBe(units);
  });

  it('knows only active ISO codes, in capitals', () => {
    for (const code of ['eur', 'EU', 'EURO', 'ZZZ', 'XXX', 'XTS', 'XAU', '']) expect(isCurrency(code)).toBe(false);
    expect(() => minorUnits('ZZZ')).toThrow();
  });

  it("overrides ICU's digits only where they differ from ISO", () => {
    for (const [code, units] of Object.entries(ISO_MINOR_UNITS)) {
      expect(isCurrency(code)).toBe(true);
      const icu = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
        .maximumFractionDigits;
      expect([code, icu]).not.toEqual([code, units]);
    }
  });

  it.each([
    ['USD', 'USD'],
    ['JPY', 'JPY'],
    ['usd', 'unknown_currency'],
    ['ZZZ', 'unknown_currency'],
    ['KWD', 'currency_not_supported'],
    ['CLF', 'currency_not_supported'],
  ])('a document in %s: %s', (code, outcome) => {
    expect(problem(() => checkDocumentCurrency(code)) ?? code).toBe(outcome);
  });

  it.each([
    [123_456, 'EUR', '1234.56', '1 234,56 €'],
    [5, 'USD', '0.05', '0,05 USD'],
    [1_234_567, 'JPY', '1234567', '1 234 567 JPY'],
    [0, 'JPY', '0', '0 JPY'],
    [1_234_567, 'KWD', '1234.567', '1 234,567 KWD'],
    [-150, 'EUR', '-1.50', '-1,50 €'],
  ])('%i minor units of %s are written %s and printed %s', (minor, code, decimal, printed) => {
    expect(decimalIn(minor, code)).toBe(decimal);
    expect(formatMoney(minor, code)).toBe(printed);
  });

  it.each([
    ['1.0845', '1.0845'],
    ['0.92150', '0.9215'],
    [' 150 ', '150'],
    ['0.0000000001', '0.0000000001'],
    ['000123.5', '123.5'],
  ])('takes the rate %j as %s', (given, canonical) => expect(parseRate(given)).toBe(canonical));

  it.each(['0', '0.0', '-1', '1,08', '1e3', '', 'abc', '1.00000000001', '1234567890123'])(
    'refuses the rate %j',
    (given) => expect(problem(() => parseRate(given))).toBe('validation_failed'),
  );

  it.each([
    // minor, from, to, rate, expected
    [10_000, 'USD', 'EUR', '0.9215', 9_215],
    [12_345, 'USD', 'EUR', '0.9215', 11_376], // 113.759175 -> 113.76
    [5, 'USD', 'EUR', '0.5', 3], // 0.025 -> 0.03, half up
    [1_000, 'JPY', 'EUR', '0.0061', 610], // 6.10 EUR
    [1_001, 'JPY', 'EUR', '0.00615', 616], // 6.15615 -> 6.16
    [10_000, 'EUR', 'JPY', '162.35', 16_235], // 100 EUR -> 16 235 JPY
    [10_050, 'EUR', 'JPY', '162.35', 16_316], // 16 316.175 -> 16 316
    [-10_000, 'USD', 'EUR', '0.9215', -9_215],
  ])('converts %i %s to %s at %s: %i', (minor, from, to, rate, expected) =>
    expect(convert(minor, from, to, rate)).toBe(expected),
  );

  it('converts the VAT per breakdown and sums it (BT-111)', () => {
    const terms = { currency: 'USD', accountingCurrency: 'EUR', exchangeRate: '0.9215' };
    // 2.49 -> 2.294535 -> 2.29; 0.55 -> 0.506825 -> 0.51
    expect(vatInAccounting([249, 55], terms)).toEqual({ perBreakdown: [229, 51], total: 280 });
  });

  it('requires a rate at issue exactly when the currency is not the accounting one', () => {
    expect(rateAtIssue('EUR', 'EUR', null)).toBeNull();
    expect(rateAtIssue('USD', 'EUR', '0.92')).toBe('0.92');
    expect(problem(() => rateAtIssue('USD', 'EUR', null))).toBe('exchange_rate_required');
    expect(problem(() => rateAtIssue('EUR', 'EUR', '1'))).toBe('exchange_rate_not_applicable');
  });

  it.each([
    [12_345, 'EUR', 12_345],
    [12_345, 'USD', 12_345],
    [500, 'JPY', 500],
    [500, 'UGX', 500],
    [12_345, 'HUF', 12_345],
    [12_345, 'TWD', 12_345],
    [5, 'ISK', 500],
    [12_300, 'MGA', 123],
  ])('Stripe charges %i minor units of %s as %i', (minor, code, amount) => {
    expect(stripeAmount(minor, code)).toBe(amount);
    expect(fromStripeAmount(amount, code)).toBe(minor);
  });

  it('refuses to charge at Stripe a fraction it cannot take', () => {
    expect(problem(() => stripeAmount(12_345, 'MGA'))).toBe('amount_not_payable_online');
  });

  it('rounds a JPY invoice to the yen: line nets and VAT per rate', () => {
    // 1.5 × 333 = 499.5 -> 500; 0.333 × 1000 = 333; 2.1 % of 833 = 17.493 -> 17; 10 % of 7 = 0.7 -> 1
    const computed = computeInvoice([
      { description: 'a', quantity: 1.5, unitPriceCents: 333, vatRate: 2.1, vatCategory: 'S' },
      { description: 'b', quantity: 0.333, unitPriceCents: 1000, vatRate: 2.1, vatCategory: 'S' },
      { description: 'c', quantity: 1, unitPriceCents: 7, vatRate: 10, vatCategory: 'S' },
    ]);
    expect(computed.lines.map((l) => l.netCents)).toEqual([500, 333, 7]);
    expect(computed.vatBreakdown.map((g) => [g.rateBp, g.taxableCents, g.vatCents])).toEqual([
      [1000, 7, 1],
      [210, 833, 17],
    ]);
    expect(computed.grandTotalCents).toBe(858);
  });
});
