import { defaultAccountingSettings } from './accountingSettings';
import {
  FEC_COLUMNS,
  fecAmount,
  fecDate,
  fecEntryLines,
  fecFileChunks,
  fecFileName,
  fiscalYear,
  type AccountingEvent,
} from './fec';
import { fecViolations } from './fecCheck';

const customerId = '0190a8f0-1111-7000-8000-000000000001';
const base = { customerId, customerName: 'Client Martin SARL', currency: 'EUR', exchange: null, lettering: null };
const invoice: AccountingEvent = {
  ...base,
  kind: 'invoice',
  id: 'i1',
  date: '2026-03-05',
  validDate: '2026-03-05',
  number: 'F-2026-00001',
  vatBreakdown: [
    { rateBp: 2000, taxableCents: 10_000, vatCents: 2000 },
    { rateBp: 550, taxableCents: 3598, vatCents: 198 },
  ],
  grandTotalCents: 15_796,
  lettering: { code: 'F202600001', date: '2026-03-20' },
};
const zero: AccountingEvent = {
  ...base,
  kind: 'invoice',
  id: 'i0',
  date: '2026-03-06',
  validDate: '2026-03-06',
  number: 'F-2026-00002',
  vatBreakdown: [{ rateBp: 2000, taxableCents: 0, vatCents: 0 }],
  grandTotalCents: 0,
};
const credit: AccountingEvent = {
  ...base,
  kind: 'credit_note',
  id: 'c1',
  date: '2026-03-10',
  validDate: '2026-03-10',
  number: 'AV-2026-00001',
  vatBreakdown: [{ rateBp: 2000, taxableCents: 1000, vatCents: 200 }],
  grandTotalCents: 1200,
  settledBeforeCents: 0,
  lettering: { code: 'F202600001', date: '2026-03-20' },
};
const payment: AccountingEvent = {
  ...base,
  kind: 'payment',
  id: 'p1',
  date: '2026-03-20',
  validDate: '2026-03-21',
  number: 'F-2026-00001',
  amountCents: 14_596,
  reference: 'VIR\t123|x',
  settledBeforeCents: 0,
  lettering: { code: 'F202600001', date: '2026-03-20' },
};

async function fileOf(events: AccountingEvent[], separator: 'tab' | 'pipe' = 'tab'): Promise<string> {
  let text = '';
  for await (const chunk of fecFileChunks(events, defaultAccountingSettings, separator)) text += chunk;
  return text;
}

const rows = (text: string, sep = '\t') =>
  text
    .split('\r\n')
    .filter(Boolean)
    .slice(1)
    .map((l) => Object.fromEntries(l.split(sep).map((v, i) => [FEC_COLUMNS[i], v])) as Record<string, string>);

describe('FEC (A47 A-1 LPF) row builder', () => {
  it('writes the 18 columns in their published order as the header', async () => {
    expect(FEC_COLUMNS).toHaveLength(18);
    const text = await fileOf([]);
    expect(text).toBe(
      'JournalCode\tJournalLib\tEcritureNum\tEcritureDate\tCompteNum\tCompteLib\tCompAuxNum\tCompAuxLib\tPieceRef\tPieceDate\tEcritureLib\tDebit\tCredit\tEcritureLet\tDateLet\tValidDate\tMontantdevise\tIdevise\r\n',
    );
  });

  it('formats amounts with a decimal comma and dates as YYYYMMDD', () => {
    expect([fecAmount(0), fecAmount(5), fecAmount(120), fecAmount(1_234_567), fecAmount(-250)]).toEqual([
      '0,00',
      '0,05',
      '1,20',
      '12345,67',
      '2,50',
    ]);
    expect(fecDate('2026-03-05')).toBe('20260305');
  });

  it('journals an invoice: 411 debited, revenue and VAT per rate credited, balanced', () => {
    const lines = fecEntryLines(invoice, 1, defaultAccountingSettings);
    expect(lines.map((l) => [l.JournalCode, l.CompteNum, l.Debit, l.Credit, l.CompAuxNum !== ''])).toEqual([
      ['VE', '411000', '157,96', '0,00', true],
      ['VE', '706000', '0,00', '100,00', false],
      ['VE', '706000', '0,00', '35,98', false],
      ['VE', '44571200', '0,00', '20,00', false],
      ['VE', '44571055', '0,00', '1,98', false],
    ]);
    expect(lines[0]).toMatchObject({ CompAuxNum: 'C0190A8F011', EcritureLet: 'F202600001', DateLet: '20260320' });
    expect(lines[1]).toMatchObject({ EcritureLet: '', DateLet: '' });
  });

  it('reverses a credit note, journals a payment in the bank, and letters both with the invoice', () => {
    const c = fecEntryLines(credit, 2, defaultAccountingSettings);
    expect(c.map((l) => [l.CompteNum, l.Debit, l.Credit])).toEqual([
      ['411000', '0,00', '12,00'],
      ['706000', '10,00', '0,00'],
      ['44571200', '2,00', '0,00'],
    ]);
    const p = fecEntryLines(payment, 3, defaultAccountingSettings);
    expect(p.map((l) => [l.JournalCode, l.CompteNum, l.Debit, l.Credit, l.EcritureLet])).toEqual([
      ['BQ', '512000', '145,96', '0,00', ''],
      ['BQ', '411000', '0,00', '145,96', 'F202600001'],
    ]);
    // No separator survives inside a text cell.
    expect(p[0].EcritureLib).toBe('Règlement F-2026-00001 Client Martin SARL VIR 123 x');
  });

  it('numbers entries 1..n without gaps (an empty entry takes no number) and complies with the rules', async () => {
    const text = await fileOf([invoice, zero, credit, payment]);
    expect(fecViolations(text)).toEqual([]);
    expect([...new Set(rows(text).map((r) => r.EcritureNum))]).toEqual(['1', '2', '3']);
    const pipe = await fileOf([invoice, credit, payment], 'pipe');
    expect(pipe.split('\r\n')[0]).toBe(FEC_COLUMNS.join('|'));
    expect(fecViolations(pipe, 'pipe')).toEqual([]);
    // Per entry, debit = credit (checked by the rules) and lettered lines sum to zero on 411.
    const lettered = rows(text).filter((r) => r.EcritureLet === 'F202600001');
    const sum = lettered.reduce((s, r) => s + Number(r.Debit.replace(',', '')) - Number(r.Credit.replace(',', '')), 0);
    expect(sum).toBe(0);
  });

  it('the checker catches what breaks the rules', async () => {
    const text = await fileOf([invoice, credit]);
    const broken = text.replace('\t2\t20260310', '\t3\t20260310').replace('157,96', '157.96');
    expect(fecViolations(broken)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('is not an amount'),
        expect.stringContaining('EcritureNum 3 after 1'),
        expect.stringContaining('debit and credit differ'),
      ]),
    );
  });

  it('books a foreign-currency document in EUR at its rate, the original amount in Montantdevise / Idevise', async () => {
    const exchange = { currency: 'USD', accountingCurrency: 'EUR', exchangeRate: '0.9215' };
    const usd = { ...invoice, currency: 'USD', exchange, lettering: null };
    const lines = fecEntryLines(usd, 1, defaultAccountingSettings);
    // 157.96 USD -> 145.56; VAT 20.00 -> 18.43, 1.98 -> 1.82; revenue 100.00 -> 92.15, the last one 145.56 −
    // 18.43 − 1.82 − 92.15 = 33.16 (35.98 × 0.9215 = 33.156 would be 33.16 too)
    expect(lines.map((l) => [l.CompteNum, l.Debit, l.Credit, l.Montantdevise, l.Idevise])).toEqual([
      ['411000', '145,56', '0,00', '157,96', 'USD'],
      ['706000', '0,00', '92,15', '100,00', 'USD'],
      ['706000', '0,00', '33,16', '35,98', 'USD'],
      ['44571200', '0,00', '18,43', '20,00', 'USD'],
      ['44571055', '0,00', '1,82', '1,98', 'USD'],
    ]);
    // Two payments converted cumulatively add up to the invoice's 145.56: 0.01 -> 0.01, then 157.95 -> 145.55.
    const first = { ...payment, currency: 'USD', exchange, amountCents: 1, settledBeforeCents: 0 };
    const second = { ...payment, id: 'p2', currency: 'USD', exchange, amountCents: 15_795, settledBeforeCents: 1 };
    const paid = [first, second].map((p) => fecEntryLines(p, 2, defaultAccountingSettings)[0]!.Debit);
    expect(paid).toEqual(['0,01', '145,55']);
    expect(fecViolations(await fileOf([usd, first, second]))).toEqual([]);
    // Zero-decimal currencies: 500 JPY written 500,00 in Montantdevise.
    const jpy = {
      ...invoice,
      currency: 'JPY',
      exchange: { currency: 'JPY', accountingCurrency: 'EUR', exchangeRate: '0.0061' },
      vatBreakdown: [{ rateBp: 2000, taxableCents: 417, vatCents: 83 }],
      grandTotalCents: 500,
      lettering: null,
    };
    expect(fecEntryLines(jpy, 1, defaultAccountingSettings).map((l) => [l.Debit, l.Credit, l.Montantdevise])).toEqual([
      ['3,05', '0,00', '500,00'],
      ['0,00', '2,54', '417,00'],
      ['0,00', '0,51', '83,00'],
    ]);
  });

  it('rounds where each entry and each lettered group balance: VAT per rate its own, revenue takes the difference', async () => {
    // 3 × 33.33 at 20 %, 3 × 33.33 at 5.5 %, 1.5 × 33.33 at 10 % (amounts.ts: VAT once per breakdown, 20.00 and
    // 5.50 where lines would give 20.01 and 5.49), in USD at 0.8537: three credit notes of 33.33 + 33.33 then a
    // payment of the rest. Converted one by one, the settlements would miss the invoice's 239.45 EUR by 2 cents.
    const exchange = { currency: 'USD', accountingCurrency: 'EUR', exchangeRate: '0.8537' };
    const lettering = { code: 'F202600009', date: '2026-04-30' };
    const foreign = { ...base, currency: 'USD', exchange, lettering, number: 'F-2026-00009' };
    const inv: AccountingEvent = {
      ...foreign,
      kind: 'invoice',
      id: 'i9',
      date: '2026-04-01',
      validDate: '2026-04-01',
      vatBreakdown: [
        { rateBp: 2000, taxableCents: 9999, vatCents: 2000 },
        { rateBp: 1000, taxableCents: 5000, vatCents: 500 },
        { rateBp: 550, taxableCents: 9999, vatCents: 550 },
      ],
      grandTotalCents: 28_048,
    };
    // creditVat.ts: 667 / 183, then 666 / 184, then 667 / 183 (the credit notes add up to the invoice's VAT).
    const notes = [
      [667, 183],
      [666, 184],
      [667, 183],
    ].map(([vat20, vat55], i): AccountingEvent => ({
      ...foreign,
      kind: 'credit_note',
      id: `c9${i}`,
      date: `2026-04-1${i}`,
      validDate: `2026-04-1${i}`,
      number: `AV-2026-0000${i}`,
      vatBreakdown: [
        { rateBp: 2000, taxableCents: 3333, vatCents: vat20 },
        { rateBp: 550, taxableCents: 3333, vatCents: vat55 },
      ],
      grandTotalCents: 6666 + vat20 + vat55,
      settledBeforeCents: [0, 7516, 15_032][i]!,
    }));
    const pay: AccountingEvent = {
      ...payment,
      ...foreign,
      id: 'p9',
      date: '2026-04-30',
      validDate: '2026-04-30',
      amountCents: 5500,
      settledBeforeCents: 22_548,
    };
    const fec = await fileOf([inv, ...notes, pay]);
    expect(fecViolations(fec)).toEqual([]);
    const rows = fec
      .split('\r\n')
      .slice(1, -1)
      .map((l) => Object.fromEntries(l.split('\t').map((v, i) => [FEC_COLUMNS[i], v])));
    const signed = (r: Record<string, string>) => Number(r.Debit.replace(',', '')) - Number(r.Credit.replace(',', ''));
    const customerLines = rows.filter((r) => r.CompteNum === '411000');
    expect(customerLines.every((r) => r.EcritureLet === 'F202600009')).toBe(true);
    expect(customerLines.reduce((sum, r) => sum + signed(r), 0)).toBe(0);
    expect(customerLines[0]!.Debit).toBe('239,45');
    // Each note's VAT is its own conversion (6.67 USD -> 5.69 EUR); its revenue line takes what rounding leaves.
    const firstNote = rows.filter((r) => r.EcritureNum === '2');
    expect(firstNote.map((r) => [r.CompteNum, r.Debit, r.Credit])).toEqual([
      ['411000', '0,00', '64,16'],
      ['706000', '28,45', '0,00'],
      ['706000', '28,46', '0,00'],
      ['44571200', '5,69', '0,00'],
      ['44571055', '1,56', '0,00'],
    ]);
  });

  it('names the file SIRENFECYYYYMMDD.txt', () => {
    expect(fecFileName('732829320', fiscalYear(2026, 1).to)).toBe('732829320FEC20261231.txt');
    expect(fiscalYear(2026, 7)).toEqual({ from: '2025-07-01', to: '2026-06-30' });
    expect(fiscalYear(2024, 3)).toEqual({ from: '2023-03-01', to: '2024-02-29' });
  });
});
