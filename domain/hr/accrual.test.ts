import { defaultCounting, MONTHLY_PAID_LEAVE, monthlyAccrual, referenceYearOf } from './accrual';

/** Monthly accrual over the reference year (1 June - 31 May), rounded up to whole days at its end (L3141-7). */
describe('leave accrual rules', () => {
  it.each([
    ['2025-06', '2025-06', '2026-05'],
    ['2025-12', '2025-06', '2026-05'],
    ['2026-01', '2025-06', '2026-05'],
    ['2026-05', '2025-06', '2026-05'],
  ])('%s is in the reference year %s..%s', (period, first, last) => {
    expect(referenceYearOf(period)).toEqual({ first, last });
  });

  const months = (first: string, count: number) =>
    Array.from({ length: count }, (_, i) => {
      const m = Number(first.slice(5, 7)) - 1 + i;
      return `${Number(first.slice(0, 4)) + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
    });
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const sum = (xs: number[]) => round2(xs.reduce((a, b) => a + b, 0));
  /** What the months credit one after the other, each given what the earlier months of its reference year credited. */
  const earn = (rate: number, periods: string[]) => {
    const credits: number[] = [];
    for (const period of periods) {
      const year = referenceYearOf(period).first;
      credits.push(
        monthlyAccrual(rate, period, sum(credits.filter((_, i) => referenceYearOf(periods[i]).first === year))),
      );
    }
    return { total: sum(credits), credits };
  };

  it.each([
    {
      name: 'a full year in jours ouvrables',
      rate: MONTHLY_PAID_LEAVE.ouvrables,
      periods: months('2024-06', 12),
      total: 30,
      last: 2.5,
    },
    {
      name: 'a full year in jours ouvrés: 12 x 2.08 = 24.96, rounded up to 25 in May',
      rate: MONTHLY_PAID_LEAVE.ouvres,
      periods: months('2024-06', 12),
      total: 25,
      last: 2.12,
    },
    {
      name: 'hired in November, ouvrables: 7 x 2.5 = 17.5 -> 18',
      rate: 2.5,
      periods: months('2024-11', 7),
      total: 18,
      last: 3,
    },
    { name: 'hired in May, ouvrés: 2.08 -> 3', rate: 2.08, periods: ['2025-05'], total: 3, last: 3 },
    { name: 'two years in ouvrés: 25 each', rate: 2.08, periods: months('2024-06', 24), total: 50, last: 2.12 },
    {
      name: 'a year from January: 5 x 2.08 = 10.4 rounded to 11 in May, then 7 x 2.08 of the next year',
      rate: 2.08,
      periods: months('2025-01', 12),
      total: 25.56,
      last: 2.08,
    },
    {
      name: 'a collective agreement at 2 days a month: whole already',
      rate: 2,
      periods: months('2024-06', 12),
      total: 24,
      last: 2,
    },
  ])('$name', ({ rate, periods, total, last }) => {
    const { total: earned, credits } = earn(rate, periods);
    expect(earned).toBe(total);
    expect(credits.at(-1)).toBe(last);
  });

  it.each([
    [2.5, 'ouvrables'],
    [2.09, 'ouvrables'],
    [2.08, 'ouvres'],
    [0, 'ouvres'],
  ])('a type made accruing %d a month without a counting counts %s (never more than five weeks)', (rate, counting) => {
    expect(defaultCounting(rate)).toBe(counting);
  });
});
