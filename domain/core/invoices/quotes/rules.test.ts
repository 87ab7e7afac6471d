import type { VatBreakdown } from '../../../../entities/core/invoice';
import { balanceLines, checkAnswerable, depositLines, depositTaxable, formatQuoteNumber, viewStatus } from './rules';

const g = (rateBp: number, taxableCents: number): VatBreakdown => ({
  category: 'S',
  rateBp,
  taxableCents,
  vatCents: Math.round((taxableCents * rateBp) / 10_000),
  exemptionReason: null,
  exemptionReasonCode: null,
});

describe('quote rules', () => {
  it('computes expired from the validity date', () => {
    expect(viewStatus({ status: 'sent', validUntil: '2026-12-01' }, '2026-12-02')).toBe('expired');
    expect(viewStatus({ status: 'sent', validUntil: '2026-12-02' }, '2026-12-02')).toBe('sent');
    expect(viewStatus({ status: 'accepted', validUntil: '2026-01-01' }, '2026-12-02')).toBe('accepted');
  });

  it('lets only a sent, unexpired, unanswered quote be answered', () => {
    expect(() => checkAnswerable({ status: 'sent', validUntil: '2026-12-02' }, '2026-12-02')).not.toThrow();
    expect(() => checkAnswerable({ status: 'draft', validUntil: '2026-12-09' }, '2026-12-02')).toThrow(
      expect.objectContaining({ code: 'quote_not_sent' }),
    );
    expect(() => checkAnswerable({ status: 'declined', validUntil: '2026-12-09' }, '2026-12-02')).toThrow(
      expect.objectContaining({ code: 'quote_already_answered' }),
    );
    expect(() => checkAnswerable({ status: 'sent', validUntil: '2026-12-01' }, '2026-12-02')).toThrow(
      expect.objectContaining({ code: 'quote_expired' }),
    );
  });

  it('formats numbers with the issue year', () => {
    expect(formatQuoteNumber(42, '2026-03-01', 5)).toBe('D-2026-00042');
  });

  it('splits each VAT breakdown into deposit and balance that add up to it', () => {
    const quote = { number: 'D-2026-00001', vatBreakdown: [g(2000, 20_001), g(550, 3_333)] };
    expect(depositTaxable(3_333, 3000)).toBe(1000);
    const deposit = depositLines(quote, 3000);
    const balance = balanceLines(quote, 3000, 'F-2026-00007');
    expect(deposit.map((l) => [l.vatRate, l.unitPriceCents])).toEqual([
      [20, 6000],
      [5.5, 1000],
    ]);
    expect(balance.map((l, i) => l.unitPriceCents + deposit[i].unitPriceCents)).toEqual([20_001, 3_333]);
    expect(balance[0].description).toContain('F-2026-00007');
  });
});
