import type { InvoiceParty, VatBreakdown } from '../../../../entities/core/invoice';
import {
  aggregatePayments,
  aggregateTransactions,
  categoryCodeOf,
  ereportScope,
  splitCents,
  type ReportedDocument,
} from './aggregate';

const party = (country: string | null, ids: { legalId?: string; vatNumber?: string } = {}): InvoiceParty => ({
  name: 'P',
  legalId: ids.legalId ?? null,
  siret: null,
  vatNumber: ids.vatNumber ?? null,
  address: country ? { line1: 'x', line2: null, postalCode: null, city: null, country } : null,
  email: null,
  iban: null,
  bic: null,
});
const seller = party('FR', { legalId: '732829320', vatNumber: 'FR44732829320' });
const vat = (rateBp: number, taxableCents: number, category: VatBreakdown['category'] = 'S'): VatBreakdown => ({
  category,
  rateBp,
  taxableCents,
  vatCents: Math.round((taxableCents * rateBp) / 10_000),
  exemptionReason: null,
  exemptionReasonCode: null,
});

describe('e-reporting scope', () => {
  it.each<[string, InvoiceParty, InvoiceParty, string | null]>([
    ['a consumer in France', seller, party('FR'), 'b2c'],
    ['a buyer without an address', seller, party(null), 'b2c'],
    ['a French business with a SIREN (e-invoiced)', seller, party('FR', { legalId: '552100554' }), null],
    [
      'a French business known by its VAT number (e-invoiced)',
      seller,
      party('FR', { vatNumber: 'FR40303265045' }),
      null,
    ],
    ['a French buyer with a non-SIREN identifier', seller, party('FR', { legalId: 'W123456789' }), 'b2c'],
    ['a German business', seller, party('DE', { vatNumber: 'DE123456789' }), 'international'],
    ['a business abroad known by its registry number', seller, party('US', { legalId: '12-3456789' }), 'international'],
    ['a consumer abroad', seller, party('BE'), 'b2c'],
    ['a seller established abroad', party('DE', { vatNumber: 'DE1' }), party('FR'), null],
  ])('%s', (_what, s, b, expected) => expect(ereportScope(s, b)).toBe(expected));

  it.each([
    ['goods', 'S', 'TLB1'],
    ['goods', 'Z', 'TLB1'],
    ['services', 'S', 'TPS1'],
    ['mixed', 'S', 'TPS1'],
    ['goods', 'K', 'TNT1'],
    ['services', 'AE', 'TNT1'],
    ['services', 'E', 'TNT1'],
    ['services', 'O', 'TNT1'],
  ] as const)('%s under %s is %s', (category, vatCategory, code) =>
    expect(categoryCodeOf(category, vatCategory)).toBe(code),
  );
});

describe('transaction data', () => {
  const doc = (over: Partial<ReportedDocument>): ReportedDocument => ({
    kind: 'invoice',
    issueDate: '2026-12-02',
    operationCategory: 'services',
    seller,
    buyer: party('FR'),
    vatBreakdown: [vat(2000, 10_000)],
    ...over,
  });

  it('aggregates per day, scope, category and rate; credit notes subtract; domestic B2B is left out', () => {
    const lines = aggregateTransactions([
      doc({ vatBreakdown: [vat(2000, 10_000), vat(550, 3_333)] }),
      doc({ vatBreakdown: [vat(2000, 5_001)] }),
      doc({ kind: 'credit_note', vatBreakdown: [vat(2000, 2_500)] }),
      doc({ issueDate: '2026-12-03', operationCategory: 'goods' }),
      doc({ buyer: party('DE', { vatNumber: 'DE123456789' }), vatBreakdown: [vat(0, 40_000, 'AE')] }),
      doc({ buyer: party('FR', { legalId: '552100554' }) }),
    ]);
    expect(lines).toEqual([
      {
        date: '2026-12-02',
        scope: 'b2c',
        category: 'services',
        categoryCode: 'TPS1',
        vatRateBp: 550,
        taxableCents: 3_333,
        vatCents: 183,
        invoiceCount: 1,
        creditNoteCount: 0,
      },
      {
        date: '2026-12-02',
        scope: 'b2c',
        category: 'services',
        categoryCode: 'TPS1',
        vatRateBp: 2000,
        taxableCents: 10_000 + 5_001 - 2_500,
        vatCents: 2_000 + 1_000 - 500,
        invoiceCount: 2,
        creditNoteCount: 1,
      },
      {
        date: '2026-12-02',
        scope: 'international',
        category: 'services',
        categoryCode: 'TNT1',
        vatRateBp: 0,
        taxableCents: 40_000,
        vatCents: 0,
        invoiceCount: 1,
        creditNoteCount: 0,
      },
      {
        date: '2026-12-03',
        scope: 'b2c',
        category: 'goods',
        categoryCode: 'TLB1',
        vatRateBp: 2000,
        taxableCents: 10_000,
        vatCents: 2_000,
        invoiceCount: 1,
        creditNoteCount: 0,
      },
    ]);
  });

  it('reports nothing for nothing', () => expect(aggregateTransactions([])).toEqual([]));
});

describe('payment data', () => {
  it.each([
    [100, [1, 1, 1], [34, 33, 33]],
    [1, [1, 1], [1, 0]],
    [0, [5, 5], [0, 0]],
    [999, [12_000, 0, 2_110], [850, 0, 149]],
    [50, [0, 0], [0, 0]],
  ])('splits %i over %j as %j', (total, weights, parts) => {
    expect(splitCents(total, weights)).toEqual(parts);
    if (weights.some((w) => w > 0)) expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
  });

  it('splits a partial payment over the VAT rates, in whole cents, and leaves goods and untaxed parts out', () => {
    const breakdown = [vat(2000, 10_000), vat(550, 2_000), vat(0, 1_000, 'E')];
    // Gross 12 000 + 2 110 + 1 000 = 15 110; 5 000 paid.
    const lines = aggregatePayments([
      { paidOn: '2026-12-04', amountCents: 5_000, operationCategory: 'services', seller, vatBreakdown: breakdown },
      {
        paidOn: '2026-12-04',
        amountCents: 1_200,
        operationCategory: 'mixed',
        seller,
        vatBreakdown: [vat(2000, 1_000)],
      },
      { paidOn: '2026-12-04', amountCents: 9_999, operationCategory: 'goods', seller, vatBreakdown: breakdown },
    ]);
    // 5000 × 12000/15110 = 3970.88 -> 3971; × 2110/15110 = 698.21 -> 698; × 1000/15110 = 330.9 -> 331.
    expect(lines).toEqual([
      { date: '2026-12-04', vatRateBp: 550, amountCents: 698, taxableCents: 698 - 36, vatCents: 36, paymentCount: 1 },
      {
        date: '2026-12-04',
        vatRateBp: 2000,
        amountCents: 3_971 + 1_200,
        taxableCents: 3_971 - 662 + 1_000,
        vatCents: 662 + 200,
        paymentCount: 2,
      },
    ]);
  });
});
