import { formatNumber, sequenceYear } from './numbering';
import { checkInvoiceSettings, defaultInvoiceSettings } from './settings';

describe('invoice numbers', () => {
  it("print the kind's prefix, {YYYY} as the issue year, and the counter zero-padded", () => {
    expect(formatNumber('invoice', 42, '2026-03-02', defaultInvoiceSettings)).toBe('F-2026-00042');
    expect(formatNumber('credit_note', 1, '2026-12-31', defaultInvoiceSettings)).toBe('AV-2026-00001');
    expect(
      formatNumber('invoice', 7, '2027-01-01', { invoicePrefix: '{YYYY}/{YYYY}-', creditNotePrefix: 'A', digits: 3 }),
    ).toBe('2027/2027-007');
    expect(formatNumber('invoice', 7, '2027-01-01', { invoicePrefix: 'FAC', creditNotePrefix: 'AV', digits: 0 })).toBe(
      'FAC7',
    );
  });

  it('never cut a counter longer than its digits', () => {
    expect(formatNumber('invoice', 123_456, '2026-03-02', defaultInvoiceSettings)).toBe('F-2026-123456');
  });

  it('count per issue year with yearly reset, in one counter (year 0) without', () => {
    expect(sequenceYear('2026-03-02', { yearlyReset: true })).toBe(2026);
    expect(sequenceYear('2026-03-02', { yearlyReset: false })).toBe(0);
  });
});

describe('invoice settings', () => {
  const fields = (settings: Partial<typeof defaultInvoiceSettings>): string[] => {
    try {
      checkInvoiceSettings({ ...defaultInvoiceSettings, ...settings });
      return [];
    } catch (err) {
      expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
      return (err as { errors: { field: string }[] }).errors.map((e) => e.field);
    }
  };

  it('accept the defaults and prefixes without {YYYY} once yearly reset is off', () => {
    expect(fields({})).toEqual([]);
    expect(fields({ yearlyReset: false, invoicePrefix: 'F-', creditNotePrefix: 'AV-' })).toEqual([]);
  });

  it('refuse the same prefix for both kinds, and a prefix without {YYYY} under yearly reset', () => {
    expect(fields({ creditNotePrefix: 'F-{YYYY}-' })).toEqual(['creditNotePrefix']);
    expect(fields({ invoicePrefix: 'F-', creditNotePrefix: 'AV-' })).toEqual(['invoicePrefix', 'creditNotePrefix']);
    expect(fields({ yearlyReset: false, invoicePrefix: 'X', creditNotePrefix: 'X' })).toEqual(['creditNotePrefix']);
  });
});
